// An ObjectHost assembled from the in-memory twins of every part (no Durable Object, no D1), for unit tests of the
// host and of controllers: the same verbs, write queue, watchers and controllers the Durable Objects run.
import { MemoryAlarms } from '../../src/host/alarms'
import type { Controller } from '../../src/host/controller'
import type { HostParts } from '../../src/host/host-parts'
import type { HostPolicy } from '../../src/host/host-policy'
import { MemoryChangeLog } from '../../src/host/memory-change-log'
import { MemoryExpiryStore, MemoryHostState, MemoryTokenStore } from '../../src/host/memory-host-records'
import { MemoryObjectStore } from '../../src/host/memory-object-store'
import { ObjectHost } from '../../src/host/object-host'
import { MemoryMembership } from '../../src/host/watch-membership'
import { ServiceAccountController } from '../../src/namespace/service-account-controller'
import { Watchers } from '../../src/host/watchers'

/** Admits every create; no reservations, no alarm work. */
export const openPolicy = (): HostPolicy => ({ admitCreate: async () => null, admitCreateNow: () => null })

export function memoryHost(
  opts: {
    scope?: string
    policy?: HostPolicy
    controllers?: Controller[]
    historyRetain?: number
    log?: MemoryChangeLog
    /** What learns a kind this host is asked about (a Durable Object's: custom kinds from the CRDs). */
    knowKind?: HostParts['knowKind']
    /** What learns a kind named by apiVersion and Kind (an ownerReference's owner). */
    knowKindOf?: HostParts['knowKindOf']
  } = {},
) {
  const policy = opts.policy ?? openPolicy()
  // As in a namespace (NamespacePolicy.admitCreate), a pod's create first makes the `default` ServiceAccount the
  // ServiceAccount admission looks for, through the serviceaccounts controller.
  const serviceAccounts = new ServiceAccountController(() => true)
  const admitCreate = policy.admitCreate.bind(policy)
  policy.admitCreate = async (def, name) => {
    const refused = await admitCreate(def, name)
    if (!refused && def.plural === 'pods' && !def.group) await serviceAccounts.ensure(host.controllerView)
    return refused
  }
  const state = new MemoryHostState()
  const log = opts.log ?? new MemoryChangeLog()
  const alarms = new MemoryAlarms()
  const host = new ObjectHost({
    scope: opts.scope ?? 'ns',
    local: {
      objects: new MemoryObjectStore(
        state,
        opts.historyRetain ?? 100,
        (r, o) => policy.needsAttention?.(r, o) ?? false,
      ),
      state,
      tokens: new MemoryTokenStore(),
      expiries: new MemoryExpiryStore(),
    },
    log,
    watchers: new Watchers(new MemoryMembership()),
    alarms,
    policy,
    controllers: opts.controllers ?? [],
    knowKind: opts.knowKind,
    knowKindOf: opts.knowKindOf,
  })
  return { host, log, alarms }
}
