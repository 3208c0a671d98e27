// scripts/migrations-state.mjs: npm start skips `wrangler d1 migrations apply` only when the one local D1 database
// records every migration file, and answers "apply them" on any doubt.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { test } from 'node:test'
import { migrationsApplied } from '../../scripts/migrations-state.mjs'

function setUp({ files = ['0001_init.sql', '0002_next.sql'], recorded, databases = 1 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'kubeflare-migrations-'))
  const migrations = join(root, 'migrations')
  mkdirSync(migrations)
  for (const f of files) writeFileSync(join(migrations, f), 'SELECT 1;')
  const state = join(root, 'state')
  const d1 = join(state, 'v3', 'd1', 'miniflare-D1DatabaseObject')
  mkdirSync(d1, { recursive: true })
  new DatabaseSync(join(d1, 'metadata.sqlite')).close()
  for (let i = 0; i < databases; i++) {
    const db = new DatabaseSync(join(d1, `${'ab'.repeat(32)}${i}.sqlite`))
    if (recorded) {
      db.exec('CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TEXT)')
      for (const name of recorded) db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').run(name)
    }
    db.close()
  }
  return { state, migrations }
}

test('every migration recorded: nothing to apply', async () => {
  const { state, migrations } = setUp({ recorded: ['0001_init.sql', '0002_next.sql'] })
  assert.equal(await migrationsApplied(state, migrations), true)
})

test('a migration file the database has not recorded: apply', async () => {
  const { state, migrations } = setUp({ recorded: ['0001_init.sql'] })
  assert.equal(await migrationsApplied(state, migrations), false)
})

test('a database without the migrations table, no database, or several: apply', async () => {
  const none = setUp({})
  assert.equal(await migrationsApplied(none.state, none.migrations), false)
  const several = setUp({ recorded: ['0001_init.sql', '0002_next.sql'], databases: 2 })
  assert.equal(await migrationsApplied(several.state, several.migrations), false)
  const empty = setUp({ recorded: ['0001_init.sql', '0002_next.sql'], databases: 0 })
  assert.equal(await migrationsApplied(empty.state, empty.migrations), false)
  assert.equal(await migrationsApplied(join(tmpdir(), 'no-such-state-dir'), none.migrations), false)
})

test('a fresh state has no database; the migrations env file carries every migration file, in order', async () => {
  const { databaseExists, writeMigrationsEnv } = await import('../../scripts/migrations-state.mjs')
  const fresh = setUp({ databases: 0 })
  assert.equal(databaseExists(fresh.state), false)
  assert.equal(databaseExists(join(tmpdir(), 'no-such-state-dir')), false)
  const made = setUp({ recorded: ['0001_init.sql'] })
  assert.equal(databaseExists(made.state), true)
  writeFileSync(join(fresh.migrations, '0003_quote.sql'), "INSERT INTO t VALUES ('it''s');\n-- a comment\n")
  const file = writeMigrationsEnv(join(fresh.state, 'kubeflare'), fresh.migrations)
  const [key, value, ...rest] = (await import('node:fs')).readFileSync(file, 'utf8').trim().split('=')
  assert.equal(key, 'KUBEFLARE_LOCAL_MIGRATIONS')
  assert.equal(rest.filter(Boolean).length, 0, 'base64 padding only')
  const decoded = JSON.parse(Buffer.from(`${value}${'='.repeat(rest.length)}`, 'base64').toString('utf8'))
  assert.deepEqual(
    decoded.map((m) => m.name),
    ['0001_init.sql', '0002_next.sql', '0003_quote.sql'],
  )
  assert.equal(decoded[2].sql, "INSERT INTO t VALUES ('it''s');\n-- a comment\n")
})
