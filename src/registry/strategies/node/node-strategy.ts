// The Node strategy: status written by whoever registers the node (its kubelet), kept on main-resource updates,
// and the `kubectl get nodes` table.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
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
      { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
      {
        name: 'Status',
        type: 'string',
        format: '',
        description: 'The status of the node',
        priority: 0,
      },
      {
        name: 'Roles',
        type: 'string',
        format: '',
        description: 'The roles of the node',
        priority: 0,
      },
      { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
      {
        name: 'Version',
        type: 'string',
        format: '',
        description: 'Kubelet Version reported by the node.',
        priority: 0,
      },
      {
        name: 'Internal-IP',
        type: 'string',
        format: '',
        description:
          "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
        priority: 1,
      },
      {
        name: 'External-IP',
        type: 'string',
        format: '',
        description:
          "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
        priority: 1,
      },
      {
        name: 'OS-Image',
        type: 'string',
        format: '',
        description: 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
        priority: 1,
      },
      {
        name: 'Kernel-Version',
        type: 'string',
        format: '',
        description: "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
        priority: 1,
      },
      {
        name: 'Container-Runtime',
        type: 'string',
        format: '',
        description:
          'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
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
