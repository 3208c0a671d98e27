// Assembles a host's parts for a Durable Object: local state in the object's SQLite, the D1 change log, hibernating
// watchers, the object's alarm, its metrics, and the commit listeners (the cluster-wide watch hub's poke, log
// compaction).
import { D1Log } from '../log/d1-log'
import { configureEncryptionAtRest } from '../registry/at-rest-config'
import { customKinds, isCustomResourceKey } from '../registry/custom/custom-kinds'
import { configureDefaultTolerationSeconds } from '../registry/strategies/pod/default-toleration-seconds'
import { DurableAlarms } from './alarms'
import { DurableMetrics } from './durable-metrics'
import { HubPoke } from './hub-poke'
import { CompactionTrigger } from './log-compaction'
import type { HostParts } from './host-parts'
import type { Attend } from './object-store'
import { SqlExpiryStore, SqlHostState, SqlTokenStore } from './sql-host-records'
import { SqlObjectStore } from './sql-object-store'
import { prepareSqlSchema } from './sql-schema'
import { HibernatingMembership } from './watch-membership'
import { Watchers } from './watchers'

export function durableParts(
  ctx: DurableObjectState,
  env: Env,
  attend: Attend,
): Omit<HostParts, 'scope' | 'policy' | 'controllers'> {
  // Before anything reads stored objects: Secrets are stored encrypted.
  const problem = configureEncryptionAtRest(env)
  if (problem) console.error(problem)
  // Pods are admitted here: DefaultTolerationSeconds' settings (a bad one keeps kube's 300; the Worker refuses it).
  const tolerations = configureDefaultTolerationSeconds(env)
  if (tolerations) console.error(tolerations)
  const sql = ctx.storage.sql
  prepareSqlSchema(sql, ctx.storage)
  const state = new SqlHostState(sql)
  // The cluster object is the one named 'cluster' in the CLUSTER namespace; every other host is a namespace's.
  const className = ctx.id.equals(env.CLUSTER.idFromName('cluster')) ? 'ClusterObject' : 'NamespaceObject'
  let watchers: Watchers | null = null
  const metrics = new DurableMetrics(ctx, env, className, {
    watches: () => watchers?.openSpecs() ?? [],
    // Sockets that are not watches are pod log followers (src/namespace/log-followers.ts).
    logFollowers: () =>
      ctx.getWebSockets().filter((ws) => ws.readyState === WebSocket.OPEN).length - (watchers?.openSpecs().length ?? 0),
  })
  metrics.woke()
  watchers = new Watchers(new HibernatingMembership(ctx), metrics)
  const log = new D1Log(env.DB, undefined, (size) => metrics.committed(size))
  const hub = new HubPoke(env)
  const compaction = new CompactionTrigger(log, env)
  return {
    local: {
      objects: new SqlObjectStore(sql, ctx.storage, state, Number(env.HISTORY_RETAIN ?? '5000'), attend),
      state,
      tokens: new SqlTokenStore(sql),
      expiries: new SqlExpiryStore(sql),
    },
    log,
    watchers,
    metrics,
    alarms: new DurableAlarms(ctx.storage),
    commitListeners: [(entries) => compaction.afterCommit(entries), () => hub.poke()],
    // Custom resources' kinds come from the cluster object's CRDs (it overrides this with its own objects).
    // A built-in kind asks nothing, so no stub of the cluster object is made for it (every write asks).
    knowKind: (resource) =>
      isCustomResourceKey(resource) ? customKinds.know(resource, env.CLUSTER.getByName('cluster')) : undefined,
    knowKindOf: (apiVersion, kind) =>
      customKinds.mayKnowKindOf(apiVersion, kind)
        ? customKinds.knowKindOf(apiVersion, kind, env.CLUSTER.getByName('cluster'))
        : undefined,
  }
}
