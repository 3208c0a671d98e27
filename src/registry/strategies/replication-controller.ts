// The ReplicationController strategy: defaults (replicas 1, selector and labels from the template), kube's RC
// validation (template labels must match the selector, restartPolicy Always), generation bumped on spec changes,
// status kept from the stored object, field selectors and the `kubectl get rc` table.
import type { Strategy, TableConvertor } from '../strategy'
import type { ObjectMeta } from '../../schema/meta'
import type { ReplicationController, ReplicationControllerStatus } from '../../schema/replication-controller'
import type { PodSpec } from '../../schema/pod'
import { fieldError, FieldPath, type FieldError } from '../field-errors'
import { nameIsDNSSubdomain } from '../validation/names'
import { validateAnnotations, validateLabels, validateNonnegativeField } from '../validation/object-meta'
import { applyPodDefaults } from './pod/pod-defaults'
import { validatePodSpec } from './pod/pod-validation-spec'
import type { PodObject } from './pod/pod-types'
import { deepEqual } from '../deep-equal'
import { age } from '../human-duration'
import { compareUtf8 } from '../go-strings'

export type RCObject = Omit<ReplicationController, 'metadata'> & { metadata: ObjectMeta }

const RC_FIELDS = ['metadata.name', 'metadata.namespace', 'status.replicas'] as const

/**
 * Pod-spec fields applyPodDefaults fills in that kube sets only on pods (SetDefaults_Pod and admission plugins), never
 * on templates: a template keeps what its author wrote there, and the pods made from it get these when created.
 */
const POD_ONLY_DEFAULTS = [
  'enableServiceLinks',
  'serviceAccountName',
  'serviceAccount',
  'priority',
  'preemptionPolicy',
  'tolerations',
] as const

/** SetDefaults_PodSpec and the container defaults, applied to a template's spec in place. */
function applyTemplateDefaults(spec: PodSpec) {
  // Copies: the pod defaults push into these arrays and maps in place.
  const before = Object.fromEntries(POD_ONLY_DEFAULTS.map((k) => [k, structuredClone(spec[k])]))
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])]
  // SetDefaults_Pod's requests-from-limits is pod-only too.
  const requests = containers.map((c) => structuredClone(c.resources?.requests))
  applyPodDefaults({ metadata: {}, spec } as PodObject)
  for (const k of POD_ONLY_DEFAULTS) {
    if (before[k] === undefined) delete spec[k]
    else (spec as Record<string, unknown>)[k] = before[k]
  }
  containers.forEach((c, i) => {
    if (!c.resources) return
    if (requests[i] === undefined) delete c.resources.requests
    else c.resources.requests = requests[i]
  })
}

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
  const template = spec.template
  const at = specPath.child('template')
  if (!template) {
    errs.push(fieldError.required(at.toString()))
    return errs
  }
  const labels = template.metadata?.labels
  if (Object.keys(spec.selector ?? {}).length > 0 && !selectorMatches(spec.selector, labels)) {
    errs.push(
      fieldError.invalid(
        at.child('metadata').child('labels').toString(),
        labels ?? {},
        '`selector` does not match template `labels`',
      ),
    )
  }
  // ValidatePodTemplateSpec: kube names the template's label and annotation maps without `metadata`.
  errs.push(...validateLabels(labels, at.child('labels')))
  errs.push(...validateAnnotations(template.metadata?.annotations, at.child('annotations')))
  const podSpec = (template.spec ?? { containers: [] }) as PodSpec
  errs.push(...validatePodSpec(podSpec, undefined, at.child('spec')))
  if ((podSpec.ephemeralContainers ?? []).length > 0) {
    errs.push(
      fieldError.forbidden(
        at.child('spec').child('ephemeralContainers').toString(),
        'ephemeral containers not allowed in pod template',
      ),
    )
  }
  if (podSpec.restartPolicy !== 'Always') {
    errs.push(
      fieldError.notSupported(at.child('spec').child('restartPolicy').toString(), podSpec.restartPolicy ?? '', [
        'Always',
      ]),
    )
  }
  if (podSpec.activeDeadlineSeconds !== undefined) {
    errs.push(
      fieldError.forbidden(
        at.child('spec').child('activeDeadlineSeconds').toString(),
        'activeDeadlineSeconds in ReplicationController is not Supported',
      ),
    )
  }
  return errs
}

/** ValidateReplicationControllerStatus: counts are non-negative and never exceed what contains them. */
function validateRCStatus(rc: RCObject): FieldError[] {
  const s: Partial<ReplicationControllerStatus> = rc.status ?? {}
  const path = new FieldPath('status')
  const errs: FieldError[] = []
  for (const k of [
    'replicas',
    'fullyLabeledReplicas',
    'readyReplicas',
    'availableReplicas',
    'observedGeneration',
  ] as const) {
    errs.push(...validateNonnegativeField(s[k] ?? 0, path.child(k)))
  }
  const replicas = s.replicas ?? 0
  if ((s.fullyLabeledReplicas ?? 0) > replicas)
    errs.push(
      fieldError.invalid(
        'status.fullyLabeledReplicas',
        s.fullyLabeledReplicas,
        'cannot be greater than status.replicas',
      ),
    )
  if ((s.readyReplicas ?? 0) > replicas)
    errs.push(fieldError.invalid('status.readyReplicas', s.readyReplicas, 'cannot be greater than status.replicas'))
  if ((s.availableReplicas ?? 0) > replicas)
    errs.push(
      fieldError.invalid('status.availableReplicas', s.availableReplicas, 'cannot be greater than status.replicas'),
    )
  if ((s.availableReplicas ?? 0) > (s.readyReplicas ?? 0)) {
    errs.push(
      fieldError.invalid('status.availableReplicas', s.availableReplicas, 'cannot be greater than readyReplicas'),
    )
  }
  return errs
}

const rcTable: TableConvertor<RCObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: 'Name must be unique within a namespace.',
      priority: 0,
    },
    {
      name: 'Desired',
      type: 'integer',
      format: '',
      description: 'Replicas is the number of desired replicas.',
      priority: 0,
    },
    {
      name: 'Current',
      type: 'integer',
      format: '',
      description: 'Replicas is the most recently observed number of replicas.',
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
      description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
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
      description: 'Selector is a label query over pods that should match the Replicas count.',
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
    if (spec.template) applyTemplateDefaults((spec.template.spec ??= { containers: [] }) as PodSpec)
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
  validateStatusUpdate: (rc) => validateRCStatus(rc),
  selectableFields: (rc) => ({
    'metadata.name': rc.metadata.name ?? '',
    'metadata.namespace': rc.metadata.namespace ?? '',
    'status.replicas': String(rc.status?.replicas ?? 0),
  }),
  fieldSelectorNames: RC_FIELDS,
  allowUnconditionalUpdate: true,
  table: rcTable,
}
