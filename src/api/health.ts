// /healthz, /livez and /readyz as kube-apiserver's healthz package serves them (k8s.io/apiserver pkg/server/healthz):
// the root path runs every check ("ok", or each check's line with ?verbose; ?exclude=<name> skips one), each check
// also has its own path (/readyz/d1), and a failure is a 500 whose body names the failed checks but withholds the
// reason, since the root paths are public (system:public-info-viewer); the reason goes to the log and to the
// individual check's path, which only system:monitoring may read.
import type { Context, Hono } from 'hono'
import { clusterBootstrapped } from './bootstrap-gate'

type Ctx = Context<{ Bindings: Env }>

interface HealthCheck {
  name: string
  /** Resolves when healthy; rejects (or times out) with the reason otherwise. */
  check(env: Env): Promise<void>
}

/** A check that has not answered within this long has failed: a health probe must answer, not hang. */
const CHECK_TIMEOUT_MS = 5_000

const ping: HealthCheck = { name: 'ping', check: async () => undefined }

/** kube's `etcd` check: the store behind lists and watches answers a query. */
const d1: HealthCheck = {
  name: 'd1',
  async check(env) {
    await env.DB.prepare('SELECT 1').first()
  },
}

/** The cluster object answers and holds the `default` namespace (it creates the system namespaces on start). */
const clusterObject: HealthCheck = {
  name: 'cluster-object',
  async check(env) {
    const phase = await env.CLUSTER.getByName('cluster').namespacePhase('default')
    if (phase === null) throw new Error('the default namespace does not exist yet')
  },
}

/** kube's post-start hooks: the bootstrap objects (system namespaces, the `kubernetes` service) are in place. */
const bootstrap: HealthCheck = {
  name: 'poststarthook/kubeflare-bootstrap',
  async check(env) {
    if (!(await clusterBootstrapped(env))) throw new Error('the cluster bootstrap has not finished')
  },
}

/** Liveness needs no bootstrap (kube's livez leaves readiness-only checks out); readiness and healthz need all. */
const CHECKS: Record<'healthz' | 'livez' | 'readyz', HealthCheck[]> = {
  livez: [ping, d1, clusterObject],
  readyz: [ping, d1, clusterObject, bootstrap],
  healthz: [ping, d1, clusterObject, bootstrap],
}

async function run(check: HealthCheck, env: Env): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000}s`)), CHECK_TIMEOUT_MS)
  })
  try {
    await Promise.race([check.check(env), timeout])
    return null
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  } finally {
    if (timer !== undefined) clearTimeout(timer)
  }
}

/** Go's http.Error: plain text, nosniff, the message and a newline. */
function plain(text: string, status: number): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  })
}

async function serveRoot(c: Ctx, path: keyof typeof CHECKS): Promise<Response> {
  const query = new URL(c.req.url).searchParams
  const excluded = new Set(query.getAll('exclude'))
  const checks = CHECKS[path]
  const results = await Promise.all(checks.map((check) => (excluded.has(check.name) ? null : run(check, c.env))))
  let lines = ''
  const failed: string[] = []
  checks.forEach((check, i) => {
    if (excluded.delete(check.name)) lines += `[+]${check.name} excluded: ok\n`
    else if (results[i] === null) lines += `[+]${check.name} ok\n`
    else {
      lines += `[-]${check.name} failed: reason withheld\n`
      failed.push(`[-]${check.name} failed: ${results[i]}`)
    }
  })
  if (excluded.size > 0) {
    const names = [...excluded].sort().map((n) => JSON.stringify(n))
    lines += `warn: some health checks cannot be excluded: no matches for ${names.join(',')}\n`
  }
  if (failed.length > 0) {
    console.error(`${path} check failed:\n${failed.join('\n')}`)
    return plain(`${lines}${path} check failed\n`, 500)
  }
  return plain(query.has('verbose') ? `${lines}${path} check passed\n` : 'ok', 200)
}

async function serveOne(c: Ctx, path: keyof typeof CHECKS): Promise<Response> {
  const name = c.req.path.slice(path.length + 2)
  const check = CHECKS[path].find((k) => k.name === name)
  if (!check) return c.notFound()
  const reason = await run(check, c.env)
  return reason === null ? plain('ok', 200) : plain(`internal server error: ${reason}\n`, 500)
}

export function registerHealth(app: Hono<{ Bindings: Env }>) {
  for (const path of ['healthz', 'livez', 'readyz'] as const) {
    app.get(`/${path}`, (c) => serveRoot(c, path))
    app.get(`/${path}/*`, (c) => serveOne(c, path))
  }
}
