// `npm start` on a fresh state directory hands the Worker the D1 migrations (KUBEFLARE_LOCAL_MIGRATIONS) instead of
// launching wrangler a second time to apply them: the first request an isolate serves applies what is missing
// before anything reads D1. Without the setting (deployed, or local state that has its schema) this costs nothing.
import type { MiddlewareHandler } from 'hono'
import { applyMigrations, decodeMigrations } from '../log/local-migrations'
import { statuses } from '../registry/status'
import { statusResponse } from './respond'

let applied: Promise<string | null> | null = null

/** Applies them once per isolate; answers a problem to report, or null. A failure is tried again next request. */
function ensureMigrations(env: Env, text: string): Promise<string | null> {
  applied ??= (async () => {
    try {
      const names = await applyMigrations(env.DB, decodeMigrations(text))
      if (names.length) console.log(`applied D1 migrations: ${names.join(', ')}`)
      return null
    } catch (e) {
      applied = null
      const message = e instanceof Error ? e.message : String(e)
      console.error('applying the local D1 migrations failed', message)
      return message
    }
  })()
  return applied
}

export const localMigrationsGate: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const text = c.env.KUBEFLARE_LOCAL_MIGRATIONS
  if (text) {
    const problem = await ensureMigrations(c.env, text)
    if (problem) return statusResponse(c, statuses.serviceUnavailable(`applying the D1 migrations failed: ${problem}`))
  }
  await next()
}
