// The D1 migrations of a fresh local state, applied by the running Worker instead of a second wrangler launch
// (`npm start` hands them over in KUBEFLARE_LOCAL_MIGRATIONS only when the state directory has no database yet):
// each migration's statements and its row in wrangler's own bookkeeping table, `d1_migrations`, in one batch, so a
// later `wrangler d1 migrations apply` (or npm start's check) sees them as applied.

/** wrangler's table, created exactly as `wrangler d1 migrations apply` creates it. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`

interface Migration {
  name: string
  sql: string
}

/**
 * A migration file as statements: comments dropped, split at semicolons, except inside a CREATE TRIGGER's body
 * (BEGIN … END), which stays one statement.
 */
export function migrationStatements(sql: string): string[] {
  const out: string[] = []
  let open = ''
  const text = sql
    .split('\n')
    .map((l) => l.replace(/--.*$/, '').trim())
    .filter(Boolean)
    .join('\n')
  for (const part of text.split(';')) {
    const piece = part.trim()
    if (!piece && !open) continue
    open = open ? `${open};\n${piece}` : piece
    if (/^CREATE\s+TRIGGER\b/i.test(open) && !/\bEND$/i.test(open)) continue
    if (open) out.push(open)
    open = ''
  }
  if (open) out.push(open)
  return out
}

/** Applies, in name order, the migrations `d1_migrations` does not list; answers the names it applied. */
export async function applyMigrations(db: D1Database, migrations: readonly Migration[]): Promise<string[]> {
  await db.prepare(MIGRATIONS_TABLE).run()
  const { results } = await db.prepare('SELECT name FROM "d1_migrations"').all<{ name: string }>()
  const done = new Set(results.map((r) => r.name))
  const applied: string[] = []
  for (const m of [...migrations].sort((a, b) => a.name.localeCompare(b.name))) {
    if (done.has(m.name)) continue
    await db.batch([
      ...migrationStatements(m.sql).map((s) => db.prepare(s)),
      db.prepare('INSERT INTO "d1_migrations" (name) VALUES (?)').bind(m.name),
    ])
    applied.push(m.name)
  }
  return applied
}

/** KUBEFLARE_LOCAL_MIGRATIONS: base64 of a JSON array of {name, sql}. */
export function decodeMigrations(text: string): Migration[] {
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  const parsed = JSON.parse(new TextDecoder().decode(bytes)) as unknown
  if (!Array.isArray(parsed)) throw new Error('KUBEFLARE_LOCAL_MIGRATIONS is not a list of migrations')
  return parsed.map((m) => {
    const { name, sql } = m as Partial<Migration>
    if (typeof name !== 'string' || typeof sql !== 'string') throw new Error('a migration needs a name and its sql')
    return { name, sql }
  })
}
