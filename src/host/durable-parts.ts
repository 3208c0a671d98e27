// Assembles a host's parts for a Durable Object: local state in the object's SQLite, the D1 change log, hibernating
// watchers, the object's alarm, and the commit listeners (the cluster-wide watch hub's poke, log compaction).
import { D1Log } from '../log/d1-log'
import { configureEncryptionAtRest } from '../registry/at-rest-config'
import { DurableAlarms } from './alarms'
import { HubPoke } from './hub-poke'
import { CompactionTrigger } from './log-compaction'
import type { HostParts } from './object-host'
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
  const sql = ctx.storage.sql
  prepareSqlSchema(sql, ctx.storage)
  const state = new SqlHostState(sql)
  const log = new D1Log(env.DB)
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
    watchers: new Watchers(new HibernatingMembership(ctx)),
    alarms: new DurableAlarms(ctx.storage),
    commitListeners: [(entries) => compaction.afterCommit(entries), () => hub.poke()],
  }
}
