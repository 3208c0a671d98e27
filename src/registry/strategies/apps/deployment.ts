// The apps/v1 Deployment strategy: SetDefaults_Deployment (replicas 1, RollingUpdate with 25%/25%, revisionHistoryLimit
// 10, progressDeadlineSeconds 600) and the template's, kube's validation with an immutable selector, generation bumped
// on spec or annotation changes (annotations are copied to ReplicaSets), status kept, and `kubectl get deploy`'s table.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { Deployment } from '../../../schema/deployment'
import type { ObjectMeta } from '../../../schema/meta'
import { deepEqual } from '../../deep-equal'
import { FieldPath } from '../../field-errors'
import { age } from '../../human-duration'
import { labelSelectorFromMetaV1 } from '../../label-selector'
import type { Strategy, TableConvertor } from '../../strategy'
import { nameIsDNSSubdomain } from '../../validation/names'
import { applyTemplateDefaults, containerCells } from '../pod-template'
import { validateSelectorUnchanged } from './apps-selector'
import { validateDeploymentSpec, validateDeploymentStatus } from './deployment-validation'

type DeploymentObject = Omit<Deployment, 'metadata'> & { metadata: ObjectMeta }
type Spec = NonNullable<DeploymentObject['spec']>

/** SetDefaults_Deployment, plus the template's defaults. */
function applyDeploymentDefaults(d: DeploymentObject) {
  const spec = (d.spec ??= {} as Spec)
  spec.replicas ??= 1
  const strategy = (spec.strategy ??= {})
  strategy.type ||= 'RollingUpdate'
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {})
    ru.maxUnavailable ??= '25%'
    ru.maxSurge ??= '25%'
  }
  spec.revisionHistoryLimit ??= 10
  spec.progressDeadlineSeconds ??= 600
  if (spec.template) applyTemplateDefaults(spec.template)
}

const deploymentTable: TableConvertor<DeploymentObject> = {
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
      name: 'Up-to-date',
      type: 'string',
      format: '',
      description:
        'Total number of non-terminating pods targeted by this deployment that have the desired template spec.',
      priority: 0,
    },
    {
      name: 'Available',
      type: 'string',
      format: '',
      description:
        'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.',
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
        'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
      priority: 1,
    },
  ],
  cells(d, now) {
    const parsed = labelSelectorFromMetaV1(d.spec?.selector)
    return [
      d.metadata.name,
      `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
      d.status?.updatedReplicas ?? 0,
      d.status?.availableReplicas ?? 0,
      age(d.metadata.creationTimestamp, now),
      ...containerCells(d.spec?.template),
      parsed.ok ? parsed.selector.toString() : '<invalid>',
    ]
  },
}

const selectorPath = new FieldPath('spec').child('selector')

export const deploymentStrategy: Strategy<DeploymentObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: applyDeploymentDefaults,
  prepareForCreate(d) {
    // The deployment controller owns status; generation starts at 1.
    d.status = {}
    d.metadata.generation = 1
  },
  validate: (d) => validateDeploymentSpec(d.spec),
  prepareForUpdate(d, old) {
    d.status = old.status
    // Spec changes and annotation changes (annotations are copied to the ReplicaSets) bump the generation.
    const generation = old.metadata.generation ?? 1
    const changed =
      !deepEqual(d.spec, old.spec) || !deepEqual(d.metadata.annotations ?? {}, old.metadata.annotations ?? {})
    d.metadata.generation = changed ? generation + 1 : generation
  },
  validateUpdate: (d, old) => [
    ...validateDeploymentSpec(d.spec),
    ...validateSelectorUnchanged(d.spec?.selector, old.spec?.selector, selectorPath),
  ],
  validateStatusUpdate: (d, old) => validateDeploymentStatus(d.status, old.status),
  selectableFields: (d) => ({
    'metadata.name': d.metadata.name ?? '',
    'metadata.namespace': d.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: deploymentTable,
}
