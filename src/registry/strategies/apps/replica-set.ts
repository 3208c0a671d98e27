// The apps/v1 ReplicaSet strategy: defaults (replicas 1, the template's), kube's ValidateReplicaSet (selector required
// and matching the template, restartPolicy Always), an immutable selector, generation bumped on spec changes, status
// kept from the stored object, the status.replicas field selector and `kubectl get rs`'s table.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { ObjectMeta } from '../../../schema/meta'
import type { ReplicaSet } from '../../../schema/replica-set'
import { deepEqual } from '../../deep-equal'
import { FieldPath, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy, TableConvertor } from '../../strategy'
import { nameIsDNSSubdomain } from '../../validation/names'
import { validateNonnegativeField } from '../../validation/object-meta'
import { applyTemplateDefaults, containerCells, validateReplicaTemplate } from '../pod-template'
import { validateReplicaStatus } from '../replica-status'
import { formatLabelSelector, validateSelectorUnchanged, validateSpecSelector } from './apps-selector'

type ReplicaSetObject = Omit<ReplicaSet, 'metadata'> & { metadata: ObjectMeta }

const specPath = new FieldPath('spec')

/** ValidateReplicaSetSpec, in kube's order and wording (an empty selector is "invalid for deployment" here too). */
function validateReplicaSetSpec(rs: ReplicaSetObject): FieldError[] {
  const spec = rs.spec ?? ({} as NonNullable<ReplicaSetObject['spec']>)
  const errs: FieldError[] = []
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, specPath.child('replicas')))
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, specPath.child('minReadySeconds')))
  const selector = validateSpecSelector(
    spec.selector,
    specPath.child('selector'),
    'empty selector is invalid for deployment',
  )
  errs.push(...selector.errors)
  if (selector.matches !== 'invalid') {
    // The template is a value in Go: absent, it is the zero template, which then fails on its own fields.
    errs.push(
      ...validateReplicaTemplate(spec.template ?? {}, selector.matches, specPath.child('template'), 'ReplicaSet'),
    )
  }
  return errs
}

const replicaSetTable: TableConvertor<ReplicaSetObject> = {
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
        'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
      priority: 0,
    },
    {
      name: 'Current',
      type: 'integer',
      format: '',
      description:
        'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
      priority: 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      format: '',
      description: 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
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
        'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      priority: 1,
    },
  ],
  cells(rs, now) {
    return [
      rs.metadata.name,
      rs.spec?.replicas ?? 0,
      rs.status?.replicas ?? 0,
      rs.status?.readyReplicas ?? 0,
      age(rs.metadata.creationTimestamp, now),
      ...containerCells(rs.spec?.template),
      formatLabelSelector(rs.spec?.selector),
    ]
  },
}

export const replicaSetStrategy: Strategy<ReplicaSetObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(rs) {
    const spec = (rs.spec ??= {} as NonNullable<ReplicaSetObject['spec']>)
    spec.replicas ??= 1
    if (spec.template) applyTemplateDefaults(spec.template)
  },
  prepareForCreate(rs) {
    // The replica set controller owns status; generation starts at 1 and counts spec changes.
    rs.status = { replicas: 0 }
    rs.metadata.generation = 1
  },
  validate: validateReplicaSetSpec,
  prepareForUpdate(rs, old) {
    rs.status = old.status
    const generation = old.metadata.generation ?? 1
    rs.metadata.generation = deepEqual(rs.spec, old.spec) ? generation : generation + 1
  },
  // kube's ValidateUpdate runs the spec checks twice (ValidateReplicaSet, then ValidateReplicaSetUpdate): the causes
  // repeat, the message does not. Then apps/v1's immutable selector.
  validateUpdate: (rs, old) => [
    ...validateReplicaSetSpec(rs),
    ...validateReplicaSetSpec(rs),
    ...validateSelectorUnchanged(rs.spec?.selector, old.spec?.selector, specPath.child('selector')),
  ],
  validateStatusUpdate: (rs) => validateReplicaStatus(rs.status),
  selectableFields: (rs) => ({
    'metadata.name': rs.metadata.name ?? '',
    'metadata.namespace': rs.metadata.namespace ?? '',
    'status.replicas': String(rs.status?.replicas ?? 0),
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace', 'status.replicas'],
  allowUnconditionalUpdate: true,
  table: replicaSetTable,
}
