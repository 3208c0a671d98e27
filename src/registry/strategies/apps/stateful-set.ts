// The apps/v1 StatefulSet strategy: v1 defaults (OrderedReady, RollingUpdate with partition 0, claims retained,
// replicas 1, revision history 10, serviceName written even when empty as Go's non-omitempty string is, the
// template's pod defaults, each claim template's apiVersion, kind, volumeMode and Pending phase), names as DNS labels,
// kube's validation with the fields an update may change, status kept from the stored object and checked on /status
// writes, generation bumped on spec changes, `kubectl get sts`'s table.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { ObjectMeta } from '../../../schema/meta'
import type { StatefulSet } from '../../../schema/stateful-set'
import { deepEqual } from '../../deep-equal'
import { age } from '../../human-duration'
import type { Strategy, TableConvertor } from '../../strategy'
import { nameIsDNSLabel } from '../../validation/names'
import { applyTemplateDefaults, containerCells } from '../pod-template'
import {
  validateStatefulSetSpec,
  validateStatefulSetStatus,
  validateStatefulSetUpdate,
} from './stateful-set-validation'

export type StatefulSetObject = Omit<StatefulSet, 'metadata'> & { metadata: ObjectMeta }
type Spec = NonNullable<StatefulSetObject['spec']>

/** SetDefaults_StatefulSet (MaxUnavailableStatefulSet is off in 1.33, StatefulSetAutoDeletePVC on). */
function applyStatefulSetDefaults(spec: Spec) {
  spec.podManagementPolicy ||= 'OrderedReady'
  const strategy = (spec.updateStrategy ??= {})
  if (!strategy.type) {
    strategy.type = 'RollingUpdate'
    strategy.rollingUpdate ??= {}
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) strategy.rollingUpdate.partition ??= 0
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {})
  retention.whenDeleted ||= 'Retain'
  retention.whenScaled ||= 'Retain'
  spec.replicas ??= 1
  spec.revisionHistoryLimit ??= 10
  spec.serviceName ??= ''
  applyTemplateDefaults((spec.template ??= {}))
  for (const claim of spec.volumeClaimTemplates ?? []) {
    // The claim defaults (SetDefaults_PersistentVolumeClaim and its spec's), and the type the v1 conversion writes.
    claim.apiVersion ||= 'v1'
    claim.kind ||= 'PersistentVolumeClaim'
    claim.spec ??= {}
    claim.spec.volumeMode ??= 'Filesystem'
    claim.status ??= {}
    claim.status.phase ||= 'Pending'
  }
}

const statefulSetTable: TableConvertor<StatefulSetObject> = {
  columns: [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: NAME_DOC,
      priority: 0,
    },
    { name: 'Ready', type: 'string', format: '', description: 'Number of the pod with ready state', priority: 0 },
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
  ],
  cells: (sts, now) => [
    sts.metadata.name,
    `${sts.status?.readyReplicas ?? 0}/${sts.spec?.replicas ?? 0}`,
    age(sts.metadata.creationTimestamp, now),
    ...containerCells(sts.spec?.template),
  ],
}

export const statefulSetStrategy: Strategy<StatefulSetObject> = {
  validateName: nameIsDNSLabel,
  applyDefaults(sts) {
    applyStatefulSetDefaults((sts.spec ??= {} as Spec))
  },
  prepareForCreate(sts) {
    // The stateful set controller owns status; generation starts at 1 and counts spec changes.
    sts.status = { replicas: 0, availableReplicas: 0 }
    sts.metadata.generation = 1
  },
  validate: (sts) => validateStatefulSetSpec(sts.spec),
  prepareForUpdate(sts, old) {
    sts.status = old.status
    const generation = old.metadata.generation ?? 1
    sts.metadata.generation = deepEqual(sts.spec, old.spec) ? generation : generation + 1
  },
  validateUpdate: (sts, old) => validateStatefulSetUpdate(sts.spec, old.spec),
  validateStatusUpdate: (sts, old) => validateStatefulSetStatus(sts.status, old.status),
  selectableFields: (sts) => ({
    'metadata.name': sts.metadata.name ?? '',
    'metadata.namespace': sts.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: statefulSetTable,
}
