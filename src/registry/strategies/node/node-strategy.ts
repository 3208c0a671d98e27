// The Node strategy: status written by whoever registers the node (its kubelet), kept on main-resource updates,
// and the `kubectl get nodes` table.
import type { Node } from '../../../schema/node'
import type { ObjectMeta } from '../../../schema/meta'
import type { Strategy } from '../../strategy'
import { fieldError, type FieldError } from '../../field-errors'
import { nameIsDNSSubdomain } from '../../validation/names'
import { age } from '../../human-duration'

type NodeObject = Omit<Node, 'metadata'> & { metadata: ObjectMeta }

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute']

function validateNode(n: NodeObject): FieldError[] {
  const errs: FieldError[] = []
  ;(n.spec?.taints ?? []).forEach((t, i) => {
    if (!t.key) errs.push(fieldError.required(`spec.taints[${i}].key`))
    if (!TAINT_EFFECTS.includes(t.effect))
      errs.push(fieldError.notSupported(`spec.taints[${i}].effect`, t.effect, TAINT_EFFECTS))
  })
  return errs
}

/** READY / NotReady / Unknown, plus SchedulingDisabled when cordoned (printNode). */
function nodeStatusCell(n: NodeObject): string {
  const ready = (n.status?.conditions ?? []).find((c) => c.type === 'Ready')
  // printNode: Ready when True, NotReady otherwise (False or Unknown), Unknown without the condition.
  const states = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown']
  if (n.spec?.unschedulable) states.push('SchedulingDisabled')
  return states.join(',')
}

function roles(n: NodeObject): string {
  const out = new Set<string>()
  for (const [k, v] of Object.entries(n.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) out.add(k.slice('node-role.kubernetes.io/'.length))
    else if (k === 'kubernetes.io/role' && v) out.add(v)
  }
  return out.size ? [...out].sort().join(',') : '<none>'
}

const address = (n: NodeObject, type: string) =>
  (n.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>'

export const nodeStrategy: Strategy<NodeObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: () => undefined,
  prepareForCreate(n) {
    if (n.spec) delete n.spec.configSource
  },
  validate: validateNode,
  prepareForUpdate(n, old) {
    // Status changes only through /status.
    n.status = old.status
  },
  validateUpdate: validateNode,
  selectableFields: (n) => ({
    'metadata.name': n.metadata.name ?? '',
    'spec.unschedulable': n.spec?.unschedulable ? 'true' : 'false',
  }),
  fieldSelectorNames: ['metadata.name', 'spec.unschedulable'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the node', priority: 0 },
      {
        name: 'Status',
        type: 'string',
        format: '',
        description: 'Readiness of the node, and whether it is cordoned',
        priority: 0,
      },
      {
        name: 'Roles',
        type: 'string',
        format: '',
        description: 'Roles from node-role.kubernetes.io labels',
        priority: 0,
      },
      { name: 'Age', type: 'string', format: '', description: 'Time since the node registered', priority: 0 },
      { name: 'Version', type: 'string', format: '', description: 'Kubelet version', priority: 0 },
      { name: 'Internal-IP', type: 'string', format: '', description: 'Internal address of the node', priority: 1 },
      { name: 'External-IP', type: 'string', format: '', description: 'External address of the node', priority: 1 },
      { name: 'OS-Image', type: 'string', format: '', description: 'Operating system image', priority: 1 },
      { name: 'Kernel-Version', type: 'string', format: '', description: 'Kernel version', priority: 1 },
      {
        name: 'Container-Runtime',
        type: 'string',
        format: '',
        description: 'Container runtime and version',
        priority: 1,
      },
    ],
    cells: (n, now) => [
      n.metadata.name,
      nodeStatusCell(n),
      roles(n),
      age(n.metadata.creationTimestamp, now),
      n.status?.nodeInfo?.kubeletVersion ?? '',
      address(n, 'InternalIP'),
      address(n, 'ExternalIP'),
      n.status?.nodeInfo?.osImage ?? '<unknown>',
      n.status?.nodeInfo?.kernelVersion ?? '<unknown>',
      n.status?.nodeInfo?.containerRuntimeVersion ?? '<unknown>',
    ],
  },
}
