// The cluster object's controllers that reach beyond it, wired to what they reach: a CRD's custom resources in D1
// and in the namespace objects (cleanup), node Leases and the namespaces with pods on a node (node lifecycle).
import type { ObjectHost } from '../host/object-host'
import { D1Log } from '../log/d1-log'
import { namespaceApi } from '../namespace/namespace-api'
import type { Result } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import type { CustomResourceInstances } from './crd-controller'
import { NodeLifecycleController } from './node-lifecycle-controller'
import type { NodeLedger } from './node-ledger'

/**
 * A CRD's custom resources for its cleanup: found in D1, deleted by the host of each namespace (or this one). `host`
 * is asked when a cleanup runs: the controller is built before the host that runs it.
 */
export function customResourceInstances(env: Env, host: () => ObjectHost): CustomResourceInstances {
  const log = new D1Log(env.DB)
  const all = { mode: { kind: 'latest' as const } }
  return {
    namespacesOf: (resource) => log.namespacesOf(resource),
    deleteAll: async (namespace, resource) => {
      const r =
        namespace === ''
          ? await host().deleteCollection(resource, all, { gracePeriodSeconds: 0 })
          : await env.NAMESPACES.getByName(namespace).deleteCollection(resource, all, { gracePeriodSeconds: 0 }, {})
      if (!r.ok && r.status.code !== 404) throw new Error(r.status.message)
    },
  }
}

/** Real nodes that stop heartbeating go Unknown and tainted; their pods are evicted (node-lifecycle-controller.ts). */
export function nodeLifecycle(env: Env, ledger: NodeLedger): NodeLifecycleController {
  return new NodeLifecycleController({
    graceMs: Number(env.NODE_MONITOR_GRACE_SECONDS ?? '40') * 1000,
    leaseRenewed: async (node) => {
      const r = (await env.NAMESPACES.getByName('kube-node-lease').get('leases', node)) as Result<KubeObject>
      const renewed = r.ok ? (r.value as { spec?: { renewTime?: string } }).spec?.renewTime : undefined
      return renewed ? Date.parse(renewed) : null
    },
    namespacesOn: (node) => ledger.namespacesOn(node),
    evict: (ns, node, taintedAt) => namespaceApi(env, ns).evictFromNode(node, taintedAt),
  })
}
