// The apps/v1 DaemonSet strategy: v1 defaults (RollingUpdate with maxUnavailable 1 and maxSurge 0, revision history
// 10, the template's pod defaults), the template generation kube keeps in the deprecated.daemonset.template.generation
// annotation (1 on create, bumped with every template change), kube's validation with the immutable selector, status
// kept from the stored object and checked on /status writes, generation bumped on spec changes, `kubectl get ds`'s
// table.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { DaemonSet } from '../../../schema/daemon-set'
import type { ObjectMeta } from '../../../schema/meta'
import { deepEqual } from '../../deep-equal'
import { FieldPath } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy, TableConvertor } from '../../strategy'
import { nameIsDNSSubdomain } from '../../validation/names'
import { applyTemplateDefaults, containerCells } from '../pod-template'
import { formatLabelSelector, validateSelectorUnchanged } from './apps-selector'
import { validateDaemonSetSpec, validateDaemonSetStatus } from './daemon-set-validation'

export type DaemonSetObject = Omit<DaemonSet, 'metadata'> & { metadata: ObjectMeta }

/** Where apps/v1 keeps the internal spec.templateGeneration (kube's DeprecatedTemplateGeneration). */
const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation'

/** The DaemonSet's template generation, from its annotation (GetTemplateGeneration); null when absent or unreadable. */
export function templateGeneration(ds: { metadata: ObjectMeta }): number | null {
  const v = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION]
  return v !== undefined && /^-?\d+$/.test(v) ? Number(v) : null
}

const setTemplateGeneration = (ds: DaemonSetObject, generation: number) => {
  ds.metadata.annotations = { ...(ds.metadata.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: String(generation) }
}

const emptyStatus = () => ({
  currentNumberScheduled: 0,
  numberMisscheduled: 0,
  desiredNumberScheduled: 0,
  numberReady: 0,
})

const col = (name: string, type: 'string' | 'integer', description: string, priority = 0, format = '') => ({
  name,
  type,
  format,
  description,
  priority,
})

const daemonSetTable: TableConvertor<DaemonSetObject> = {
  columns: [
    col('Name', 'string', NAME_DOC, 0, 'name'),
    col(
      'Desired',
      'integer',
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
    col(
      'Current',
      'integer',
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
    col(
      'Ready',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
    ),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    col(
      'Available',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
    ),
    col(
      'Node Selector',
      'string',
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    col('Age', 'string', CREATION_DOC),
    col('Containers', 'string', 'Names of each container in the template.', 1),
    col('Images', 'string', 'Images referenced by each container in the template.', 1),
    col(
      'Selector',
      'string',
      'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      1,
    ),
  ],
  cells(ds, now) {
    const s = ds.status
    const nodeSelector = ds.spec?.template?.spec?.nodeSelector
    return [
      ds.metadata.name,
      s?.desiredNumberScheduled ?? 0,
      s?.currentNumberScheduled ?? 0,
      s?.numberReady ?? 0,
      s?.updatedNumberScheduled ?? 0,
      s?.numberAvailable ?? 0,
      // labels.FormatLabels of the node selector: k=v pairs in key order, <none> when empty.
      formatLabelSelector(nodeSelector && Object.keys(nodeSelector).length ? { matchLabels: nodeSelector } : {}),
      age(ds.metadata.creationTimestamp, now),
      ...containerCells(ds.spec?.template),
      formatLabelSelector(ds.spec?.selector),
    ]
  },
}

export const daemonSetStrategy: Strategy<DaemonSetObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(ds) {
    const spec = (ds.spec ??= {} as NonNullable<DaemonSetObject['spec']>)
    const strategy = (spec.updateStrategy ??= {})
    strategy.type ||= 'RollingUpdate'
    if (strategy.type === 'RollingUpdate') {
      const ru = (strategy.rollingUpdate ??= {})
      ru.maxUnavailable ??= 1
      ru.maxSurge ??= 0
    }
    spec.revisionHistoryLimit ??= 10
    applyTemplateDefaults((spec.template ??= {}))
  },
  prepareForCreate(ds) {
    ds.status = emptyStatus()
    ds.metadata.generation = 1
    setTemplateGeneration(ds, Math.max(1, templateGeneration(ds) ?? 0))
  },
  validate: (ds) => validateDaemonSetSpec(ds.spec),
  prepareForUpdate(ds, old) {
    ds.status = old.status
    const generation = old.metadata.generation ?? 1
    const oldTemplateGeneration = templateGeneration(old) ?? 1
    // The template generation is the server's: a client cannot set it, a template change bumps it.
    const templateChanged = !deepEqual(ds.spec?.template, old.spec?.template)
    setTemplateGeneration(ds, templateChanged ? oldTemplateGeneration + 1 : oldTemplateGeneration)
    ds.metadata.generation = deepEqual(ds.spec, old.spec) ? generation : generation + 1
  },
  // kube's ValidateUpdate runs the spec checks twice (ValidateDaemonSet, then ValidateDaemonSetUpdate): the causes
  // repeat, the message does not. Then apps/v1's immutable selector.
  validateUpdate: (ds, old) => [
    ...validateDaemonSetSpec(ds.spec),
    ...validateDaemonSetSpec(ds.spec),
    ...validateSelectorUnchanged(ds.spec?.selector, old.spec?.selector, new FieldPath('spec').child('selector')),
  ],
  validateStatusUpdate: (ds, old) => validateDaemonSetStatus(ds.status, old.status),
  selectableFields: (ds) => ({
    'metadata.name': ds.metadata.name ?? '',
    'metadata.namespace': ds.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: daemonSetTable,
}
