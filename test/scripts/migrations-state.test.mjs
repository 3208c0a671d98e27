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
