// The simulated kubelet's part of a virtual node's status that follows its capacity: kubelet's MachineInfo setter
// copies every capacity entry into allocatable (virtual nodes reserve nothing for the system) and drops an extended
// resource from allocatable once it is gone from capacity. This is what makes kube's "advertise an extended resource"
// recipe (a status patch adding `example.com/dongle` to capacity) give the node that much allocatable, so the
// scheduler places pods asking for it. Nodes a node agent serves are left alone: the agent does this itself.
import type { Controller, ControllerHost } from '../host/controller'
import { isExtendedResource } from '../registry/pod-requests'
import type { LogEntry } from '../registry/store'
import { VIRTUAL_NODE_ANNOTATION } from '../registry/virtual-nodes'
import type { KubeObject } from '../schema/meta'

type ResourceList = Record<string, string>
type NodeObject = KubeObject & { status?: { capacity?: ResourceList; allocatable?: ResourceList } }

/** The allocatable a kubelet would write for this capacity over `current`, or null when it has it already. */
function followCapacity(capacity: ResourceList, current: ResourceList | undefined): ResourceList | null {
  const next: ResourceList = {}
  for (const [name, q] of Object.entries(current ?? {}))
    if (name in capacity || !isExtendedResource(name)) next[name] = q
  Object.assign(next, capacity)
  const same =
    Object.keys(next).length === Object.keys(current ?? {}).length &&
    Object.entries(next).every(([name, q]) => current?.[name] === q)
  return same ? null : next
}

export class VirtualNodeStatusController implements Controller {
  readonly name = 'virtual-node-status'

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    for (const e of entries) {
      if (e.resource !== 'nodes' || e.type === 'DELETED') continue
      const committed = e.object as NodeObject
      if (committed.metadata.annotations?.[VIRTUAL_NODE_ANNOTATION] !== 'true' || !committed.status?.capacity) continue
      // Most node writes leave capacity alone: no write is planned for them.
      if (!followCapacity(committed.status.capacity, committed.status.allocatable)) continue
      await host.update(
        'nodes',
        e.name,
        (n) => {
          const node = n as NodeObject
          if (node.metadata.annotations?.[VIRTUAL_NODE_ANNOTATION] !== 'true' || !node.status?.capacity) return null
          const allocatable = followCapacity(node.status.capacity, node.status.allocatable)
          return allocatable ? { ...node, status: { ...node.status, allocatable } } : null
        },
        { subresource: 'status', fieldManager: 'kubelet' },
      )
    }
  }
}
