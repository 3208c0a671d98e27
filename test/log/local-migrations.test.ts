// The D1 migrations a fresh local state gets from the Worker (src/log/local-migrations.ts): statements split as
// D1 needs them (a trigger's body whole), each migration applied with its row in wrangler's d1_migrations table,
// once; and the first request applies them before anything reads D1 (src/api/local-migrations-gate.ts).
import { env } from 'cloudflare:workers'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { localMigrationsGate } from '../../src/api/local-migrations-gate'
import { applyMigrations, decodeMigrations, migrationStatements } from '../../src/log/local-migrations'

const TRIGGERED = `-- a table and a trigger that fills another
CREATE TABLE lm_items (
  id INTEGER PRIMARY KEY, -- the key
  name TEXT NOT NULL
);
CREATE TABLE lm_log (name TEXT NOT NULL);
CREATE TRIGGER lm_items_log AFTER INSERT ON lm_items
BEGIN
  INSERT INTO lm_log (name) VALUES (NEW.name);
  INSERT INTO lm_log (name) VALUES (NEW.name || '!');
END;
`

describe('local migrations', () => {
  it('splits a migration into statements, keeping a trigger body whole', () => {
    const statements = migrationStatements(TRIGGERED)
    expect(statements).toHaveLength(3)
    expect(statements[0]).toMatch(/^CREATE TABLE lm_items \(\nid INTEGER PRIMARY KEY,\nname TEXT NOT NULL\n\)$/)
    expect(statements[2]).toMatch(/^CREATE TRIGGER lm_items_log[\s\S]*NEW\.name \|\| '!'\);\nEND$/)
  })

  it('applies what d1_migrations does not list, records it, and applies nothing twice', async () => {
    const migrations = [{ name: '9001_local.sql', sql: TRIGGERED }]
    expect(await applyMigrations(env.DB, migrations)).toEqual(['9001_local.sql'])
    await env.DB.prepare("INSERT INTO lm_items (name) VALUES ('a')").run()
    const log = await env.DB.prepare('SELECT name FROM lm_log ORDER BY rowid').all<{ name: string }>()
    expect(log.results.map((r) => r.name)).toEqual(['a', 'a!'])
    const names = await env.DB.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()
    expect(names.results.map((r) => r.name)).toContain('9001_local.sql')
    // The schema's own migrations were applied already (by the test setup, through the same table).
    expect(names.results.map((r) => r.name)).toContain('0001_init.sql')
    expect(
      await applyMigrations(env.DB, [{ name: '0001_init.sql', sql: 'CREATE TABLE changes (x)' }, ...migrations]),
    ).toEqual([])
  })

  it('the gate applies them before the request goes on; a bad set is a 503 and nothing else runs', async () => {
    const encode = (v: unknown) => btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(v))))
    expect(decodeMigrations(encode([{ name: 'x.sql', sql: 'SELECT 1;' }]))).toEqual([
      { name: 'x.sql', sql: 'SELECT 1;' },
    ])
    let reached = 0
    const app = new Hono<{ Bindings: Env }>()
    app.use('*', localMigrationsGate)
    app.get('/x', async (c) => {
      reached++
      const row = await c.env.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'lm_gate'").first()
      return c.text(row ? 'there' : 'missing')
    })
    const bad = { ...env, KUBEFLARE_LOCAL_MIGRATIONS: encode([{ name: '9002_bad.sql', sql: 'CREATE TABLE (' }]) }
    const refused = await app.request('/x', {}, bad)
    expect(refused.status).toBe(503)
    expect(((await refused.json()) as { message: string }).message).toMatch(/^applying the D1 migrations failed: /)
    expect(reached).toBe(0)
    // The failure is not remembered: a good set on the next request is applied before the handler runs.
    const good = {
      ...env,
      KUBEFLARE_LOCAL_MIGRATIONS: encode([{ name: '9003_gate.sql', sql: 'CREATE TABLE lm_gate (x);' }]),
    }
    const ok = await app.request('/x', {}, good)
    expect(await ok.text()).toBe('there')
  })
})
