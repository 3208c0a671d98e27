// Whether the local D1 database under a wrangler state directory already has every migration of migrations/, read
// from the table wrangler itself records them in (d1_migrations), so `npm start` can skip the second wrangler launch
// that `wrangler d1 migrations apply` costs (about a second) when there is nothing to apply. Any doubt (several
// databases, an unreadable file, an older Node) answers false, and start.mjs applies them the usual way. A state
// directory with no database at all gets them from the Worker itself (writeMigrationsEnv: no wrangler launch either).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where miniflare keeps D1 databases under a --persist-to directory (one SQLite file per database). */
const D1_DIR = join('v3', 'd1', 'miniflare-D1DatabaseObject')

export async function migrationsApplied(stateDir, migrationsDir) {
  const dir = join(stateDir, D1_DIR)
  if (!existsSync(dir) || !existsSync(migrationsDir)) return false
  const databases = readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
  if (databases.length !== 1) return false
  const wanted = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql'))
  const recorded = await recordedMigrations(join(dir, databases[0]))
  return recorded !== null && wanted.every((name) => recorded.has(name))
}

async function recordedMigrations(file) {
  // node:sqlite announces itself as experimental on load; that line would only confuse someone starting a server.
  const emitWarning = process.emitWarning
  process.emitWarning = () => {}
  let db
  try {
    const { DatabaseSync } = await import('node:sqlite')
    db = new DatabaseSync(file, { readOnly: true })
    return new Set(
      db
        .prepare('SELECT name FROM d1_migrations')
        .all()
        .map((row) => row.name),
    )
  } catch {
    return null
  } finally {
    process.emitWarning = emitWarning
    db?.close()
  }
}

/** Whether the state directory holds a local D1 database at all (a fresh one does not). */
export function databaseExists(stateDir) {
  const dir = join(stateDir, D1_DIR)
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
}

/**
 * Writes the env file that hands the Worker every migration of migrations/ (KUBEFLARE_LOCAL_MIGRATIONS: base64 of a
 * JSON array of {name, sql}, so no quoting rule of the .env format can bend it); answers its path.
 */
export function writeMigrationsEnv(dir, migrationsDir) {
  const migrations = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(migrationsDir, name), 'utf8') }))
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'migrations.env')
  const value = Buffer.from(JSON.stringify(migrations), 'utf8').toString('base64')
  writeFileSync(file, `KUBEFLARE_LOCAL_MIGRATIONS=${value}\n`, { mode: 0o600 })
  return file
}
