// The ReplicationController strategy: defaults (replicas 1, selector and labels from the template), kube's RC
// validation (template labels must match the selector, restartPolicy Always), generation bumped on spec changes,
// status kept from the stored object, field selectors and the `kubectl get rc` table.
import { CREATION_DOC, NAME_DOC } from '../table-column-docs'
import type { Strategy, TableConvertor } from '../strategy'
import type { ObjectMeta } from '../../schema/meta'
import type { ReplicationController } from '../../schema/replication-controller'
import { fieldError, FieldPath, type FieldError } from '../field-errors'
import { nameIsDNSSubdomain } from '../validation/names'
import { validateNonnegativeField } from '../validation/object-meta'
import { applyTemplateDefaults, validateReplicaTemplate } from './pod-template'
import { validateReplicaStatus } from './replica-status'
import { deepEqual } from '../deep-equal'
import { age } from '../human-duration'
import { compareUtf8 } from '../go-strings'

type RCObject = Omit<ReplicationController, 'metadata'> & { metadata: ObjectMeta }

const RC_FIELDS = ['metadata.name', 'metadata.namespace', 'status.replicas'] as const

/** labels.FormatLabels: k=v pairs in key order, or <none>. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort(compareUtf8)
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',')
}

/** Whether every key=value of a (non-empty) selector is among the labels. */
export function selectorMatches(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  const entries = Object.entries(selector ?? {})
  return entries.length > 0 && entries.every(([k, v]) => labels?.[k] === v)
}

const specPath = new FieldPath('spec')

/** ValidateReplicationControllerSpec with ValidatePodTemplateSpecForRC, in kube's order and wording. */
function validateRC(rc: RCObject): FieldError[] {
  const spec = rc.spec ?? {}
  const errs: FieldError[] = []
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, specPath.child('minReadySeconds')))
  if (Object.keys(spec.selector ?? {}).length === 0) errs.push(fieldError.required('spec.selector'))
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, specPath.child('replicas')))
  // ValidatePodTemplateSpecForRC: the selector check only when the selector selects something.
  const selector = spec.selector ?? {}
  const matches =
    Object.keys(selector).length > 0
      ? (labels: Record<string, string> | undefined) => selectorMatches(selector, labels)
      : null
  errs.push(...validateReplicaTemplate(spec.template, matches, specPath.child('template'), 'ReplicationController'))
  return errs
}

const rcTable: TableConvertor<RCObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: NAME_DOC,
      priority: 0,
    },
    {
      name: 'Desired',
      type: 'integer',
      format: '',
      description:
        'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
      priority: 0,
    },
    {
      name: 'Current',
      type: 'integer',
      format: '',
      description:
        'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
      priority: 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      format: '',
      description: 'The number of ready replicas for this replication controller.',
      priority: 0,
    },
    {
      name: 'Age',
      type: 'string',
      format: '',
      description: CREATION_DOC,
      priority: 0,
    },
    {
      name: 'Containers',
      type: 'string',
      format: '',
      description: 'Names of each container in the template.',
      priority: 1,
    },
    {
      name: 'Images',
      type: 'string',
      format: '',
      description: 'Images referenced by each container in the template.',
      priority: 1,
    },
    {
      name: 'Selector',
      type: 'string',
      format: '',
      description:
        'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      priority: 1,
    },
  ],
  cells(rc, now) {
    const containers = rc.spec?.template?.spec?.containers ?? []
    return [
      rc.metadata.name,
      rc.spec?.replicas ?? 0,
      rc.status?.replicas ?? 0,
      rc.status?.readyReplicas ?? 0,
      age(rc.metadata.creationTimestamp, now),
      containers.map((c) => c.name).join(','),
      containers.map((c) => c.image ?? '').join(','),
      formatLabels(rc.spec?.selector),
    ]
  },
}

export const replicationControllerStrategy: Strategy<RCObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(rc) {
    const spec = (rc.spec ??= {})
    const labels = spec.template?.metadata?.labels
    if (labels && Object.keys(labels).length > 0) {
      if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels }
      if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels }
    }
    spec.replicas ??= 1
    if (spec.template) applyTemplateDefaults(spec.template)
  },
  prepareForCreate(rc) {
    // The replication manager owns status; generation starts at 1 and counts spec changes.
    rc.status = { replicas: 0 }
    rc.metadata.generation = 1
  },
  validate: validateRC,
  prepareForUpdate(rc, old) {
    rc.status = old.status
    const generation = old.metadata.generation ?? 1
    rc.metadata.generation = deepEqual(rc.spec, old.spec) ? generation : generation + 1
  },
  validateUpdate: (rc) => validateRC(rc),
  validateStatusUpdate: (rc) => validateReplicaStatus(rc.status),
  selectableFields: (rc) => ({
    'metadata.name': rc.metadata.name ?? '',
    'metadata.namespace': rc.metadata.namespace ?? '',
    'status.replicas': String(rc.status?.replicas ?? 0),
  }),
  fieldSelectorNames: RC_FIELDS,
  allowUnconditionalUpdate: true,
  table: rcTable,
}
