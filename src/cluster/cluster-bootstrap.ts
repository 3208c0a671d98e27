// What the cluster object makes on every start: the system namespaces (kube's system-namespaces controller) and
// the virtual nodes of VIRTUAL_NODES that were never registered before.
import type { ObjectHost } from '../host/object-host'
import { SYSTEM_NAMESPACES } from '../registry/strategies/namespace'
import { parseVirtualNodes, virtualNode } from '../registry/virtual-nodes'

/** Creates whichever system namespace is missing (kube's system-namespaces controller); only kube-node-lease can go. */
export async function ensureSystemNamespaces(host: ObjectHost) {
  await Promise.all(
    SYSTEM_NAMESPACES.map(async (name) => {
      if (host.objects.exists('namespaces', name)) return
      // kube-apiserver's own client makes them: its name is the manager of the defaulted metadata.name label.
      const r = await host.create('namespaces', { metadata: { name } }, { fieldManager: 'kube-apiserver' })
      if (!r.ok && r.status.code !== 409) console.error(`system namespace ${name} was refused`, r.status.message)
    }),
  )
}

/**
 * Registers the virtual nodes of VIRTUAL_NODES not registered before, on every start: a larger count given later
 * (`npm start -- --nodes 100`) adds nodes to existing state. A node registered once is not registered again, so
 * a virtual node someone deleted stays deleted; nodes are never removed here.
 */
export async function bootstrapNodes(host: ObjectHost, virtualNodes: string | undefined) {
  const configs = parseVirtualNodes(virtualNodes)
  const recorded = host.state.get('virtual_nodes_registered')
  // State from before this record kept only a flag: the nodes it registered are the ones still there.
  const registered = new Set<string>(
    recorded
      ? (JSON.parse(recorded) as string[])
      : host.state.get('nodes_bootstrapped')
        ? host.objects.names('nodes')
        : [],
  )
  const fresh = configs.map((config, i) => ({ config, i })).filter(({ config }) => !registered.has(config.name))
  if (fresh.length === 0 && recorded) return
  await Promise.all(
    fresh.map(async ({ config, i }) => {
      if (host.objects.exists('nodes', config.name)) return
      // Registered as a kubelet registers its Node, under its manager.
      const r = await host.create('nodes', virtualNode(config, i, new Date()), { fieldManager: 'kubelet' })
      if (!r.ok && r.status.code !== 409) console.error(`virtual node ${config.name} was refused`, r.status.message)
    }),
  )
  for (const { config } of fresh) if (host.objects.exists('nodes', config.name)) registered.add(config.name)
  host.state.set('virtual_nodes_registered', JSON.stringify([...registered]))
}
