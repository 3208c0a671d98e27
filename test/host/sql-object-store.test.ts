// The Durable Object SQLite local state runs the shared case suite, each case in a fresh object's storage (the
// watch hub class: its constructor leaves SQLite alone, so the tables are only the ones the case creates).
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { prepareSqlSchema } from '../../src/host/sql-schema'
import { SqlObjectStore } from '../../src/host/sql-object-store'
import { SqlExpiryStore, SqlHostState, SqlTokenStore } from '../../src/host/sql-host-records'
import { objectStoreCases } from './object-store.cases'

let n = 0
objectStoreCases('sqlite', (fn) =>
  runInDurableObject(env.WATCH_HUB.getByName(`object-store-${Date.now()}-${n++}`), async (_instance, ctx) => {
    const sql = ctx.storage.sql
    prepareSqlSchema(sql, ctx.storage)
    await fn((attend) => {
      const state = new SqlHostState(sql)
      return {
        objects: new SqlObjectStore(sql, ctx.storage, state, 5, attend),
        state,
        tokens: new SqlTokenStore(sql),
        expiries: new SqlExpiryStore(sql),
      }
    })
  }),
)
