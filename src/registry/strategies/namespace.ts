// The Namespace strategy: phase and the kubernetes finalizer, the metadata.name label, deletion as a process.
import { CREATION_DOC, NAME_DOC } from '../table-column-docs'
import type { Namespace } from '../../schema/namespace'
import type { Strategy } from '../strategy'
import { nameIsDNSLabel } from '../validation/names'
import { age } from '../human-duration'
import { statuses } from '../status'
import { rfc3339 } from '../time'

type NS = Namespace & { metadata: NonNullable<Namespace['metadata']> }

/** These always exist; kube refuses to delete them. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const
const UNDELETABLE = new Set(['default', 'kube-system', 'kube-public'])

export const namespaceStrategy: Strategy<NS> = {
  validateName: nameIsDNSLabel,
  applyDefaults(ns) {
    // SetDefaults_Namespace: the immutable label naming the namespace, used by namespace selectors.
    if (ns.metadata.name) (ns.metadata.labels ??= {})['kubernetes.io/metadata.name'] = ns.metadata.name
  },
  prepareForCreate(ns) {
    ns.spec = { finalizers: ['kubernetes'] }
    ns.status = { phase: 'Active' }
  },
  validate: () => [],
  prepareForUpdate(ns, old) {
    // The spec changes only through /finalize, the status only through /status.
    ns.spec = old.spec
    ns.status = old.status
  },
  validateUpdate: () => [],
  selectableFields: (ns) => ({
    'metadata.name': ns.metadata.name ?? '',
    'status.phase': ns.status?.phase ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'status.phase'],
  allowUnconditionalUpdate: true,
  beginDelete(ns, ctx) {
    const name = ns.metadata.name ?? ''
    if (UNDELETABLE.has(name)) {
      return { status: statuses.forbidden({ resource: 'namespaces' }, name, 'this namespace may not be deleted') }
    }
    if (ns.status?.phase === 'Terminating') return { object: ns }
    ns.metadata.deletionTimestamp ??= rfc3339(ctx.now)
    ns.metadata.deletionGracePeriodSeconds ??= 0
    ns.status = { ...ns.status, phase: 'Terminating' }
    return { object: ns }
  },
  table: {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
      {
        name: 'Status',
        type: 'string',
        format: '',
        description: 'The status of the namespace',
        priority: 0,
      },
      { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
    ],
    cells: (ns, now) => [ns.metadata.name, ns.status?.phase ?? '', age(ns.metadata.creationTimestamp, now)],
  },
}
