// Helpers for the end-to-end tests (run by test/e2e/run.mjs, which sets KUBEFLARE_URL, KUBECONFIG and KUBECTL_DIR).
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const KUBEFLARE_URL = (process.env.KUBEFLARE_URL ?? '').replace(/\/+$/, '')
export const KUBECONFIG = process.env.KUBECONFIG ?? ''
export const KUBECTL_DIR = process.env.KUBECTL_DIR ?? ''
/** The admin token (system:masters) the harness put in the server's token file. */
export const TOKEN = process.env.KUBEFLARE_TOKEN ?? ''
/** Tokens of the harness's test users: admin, alice (group team-a-devs), bob. */
export const TEST_TOKENS = JSON.parse(process.env.KUBEFLARE_TEST_TOKENS ?? '{}')

for (const [k, v] of Object.entries({ KUBEFLARE_URL, KUBECONFIG, KUBECTL_DIR })) {
  if (!v)
    throw new Error(`${k} is not set: run the e2e tests through \`node test/e2e/run.mjs\` (or \`npm run test:e2e\`)`)
}

/** The kubectl versions the suite drives. */
export const KUBECTL_VERSIONS = ['1.27', '1.33']

/**
 * Run `${KUBECTL_DIR}/kubectl.<version>` against the test server with a fresh `--cache-dir` (so discovery and the HTTP
 * cache are always cold) and resolve to {code, stdout, stderr}. Rejects when the exit code is not 0 unless allowFail.
 * The process is killed after `timeout` ms (default 60 s) and then counts as failed (code null).
 */
export function kubectl(version, args, { input, allowFail = false, timeout = 60_000 } = {}) {
  const v = String(version).replace(/^v/, '')
  const bin = join(KUBECTL_DIR, `kubectl.${v.startsWith('1.') ? v : `1.${v}`}`)
  if (!existsSync(bin)) throw new Error(`no kubectl binary ${bin}`)
  const cacheDir = mkdtempSync(join(tmpdir(), 'kubeflare-kubectl-cache-'))
  const argv = ['--kubeconfig', KUBECONFIG, '--cache-dir', cacheDir, ...args]
  return new Promise((resolve, reject) => {
    const child = spawn(bin, argv, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG } })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeout)
    child.stdin.on('error', () => {}) // kubectl may exit before reading all of stdin
    child.stdin.end(input ?? '')
    child.on('error', (err) => {
      clearTimeout(timer)
      rmSync(cacheDir, { recursive: true, force: true })
      reject(err)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      rmSync(cacheDir, { recursive: true, force: true })
      if (timedOut) stderr += `\n[helpers] kubectl killed after ${timeout} ms`
      const res = { code: timedOut ? null : code, stdout, stderr }
      if (res.code !== 0 && !allowFail) {
        const e = new Error(
          `kubectl.${v} ${args.join(' ')} exited ${res.code}\n--- stdout\n${stdout}--- stderr\n${stderr}`,
        )
        e.result = res
        reject(e)
      } else resolve(res)
    })
  })
}

/**
 * fetch against the test server. body: object (sent as JSON unless a content-type says otherwise) or string.
 * Resolves to {status, headers, text, body} where body is the parsed JSON (or undefined).
 */
export async function api(method, path, body, headers = {}) {
  // Every request is authenticated as the admin unless the caller brings its own Authorization (or null for none).
  const h = { accept: 'application/json', ...(TOKEN ? { authorization: `Bearer ${TOKEN}` } : {}), ...headers }
  for (const [k, v] of Object.entries(h)) if (v === null) delete h[k]
  let payload
  if (body !== undefined && body !== null) {
    if (typeof body === 'string' || body instanceof Uint8Array) payload = body
    else payload = JSON.stringify(body)
    if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json'
  }
  const res = await fetch(`${KUBEFLARE_URL}${path}`, {
    method,
    headers: h,
    body: payload,
    signal: AbortSignal.timeout(30_000),
  })
  const text = await res.text()
  let json
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {}
  return { status: res.status, headers: res.headers, text, body: json }
}

/** A fresh, valid namespace name (DNS label, <= 63 chars). */
export function uniqueNs(prefix = 'e2e') {
  const p =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'e2e'
  return `${p}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
}

/** A minimal Pod manifest as a plain object. */
export function podManifest(name, { namespace, labels, image = 'nginx:1.25', spec = {}, metadata = {} } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}), ...metadata },
    spec: { containers: [{ name: 'main', image }], ...spec },
  }
}

/**
 * Split kubectl table output into {header: string[], rows: string[][]} (columns are separated by 2+ spaces; single
 * spaces stay inside a cell, e.g. "NOMINATED NODE").
 */
export function parseTable(stdout) {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '')
  const split = (l) => l.trim().split(/\s{2,}/)
  if (lines.length === 0) return { header: [], rows: [] }
  return { header: split(lines[0]), rows: lines.slice(1).map(split) }
}

/** Polls `check` every 250 ms until it answers something other than undefined, false or ''; throws after `timeout`. */
export async function waitFor(what, check, timeout = 60_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined && v !== false && v !== '') return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Debian's python3: its python3-kubernetes installs for the system python, not a pyenv shim first on PATH. */
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

/**
 * Runs test/e2e/python/<script> with `args` and the environment's KUBECONFIG; asserts it exited 0 and answers the
 * JSON lines it printed, keyed by their `check`.
 */
export function pythonChecks(script, args, timeout = 90_000) {
  const r = spawnSync(PYTHON, [join(import.meta.dirname, 'python', script), ...args], {
    encoding: 'utf8',
    timeout,
    env: process.env,
  })
  assert.equal(r.status, 0, `${script} exited ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`)
  return Object.fromEntries(
    r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .map((c) => [c.check, c]),
  )
}
