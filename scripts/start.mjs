#!/usr/bin/env node
// `npm start [-- <wrangler dev args>]`: apply the D1 migrations locally (skipped when the database records them all:
// scripts/migrations-state.mjs; a fresh state directory gets them from the Worker's first request instead of a
// second wrangler launch), then run `wrangler dev` on 127.0.0.1:8787,
// serving HTTPS with tokens: the CA, server certificate, token file, ServiceAccount signing key, the key Secrets are
// encrypted with at rest and a kubeconfig are made on first start and kept in `<state>/kubeflare/`
// (scripts/local-credentials.mjs); the CA is also handed to the Worker (KUBEFLARE_ROOT_CA, the kube-root-ca.crt
// ConfigMap of every namespace). The server certificate names 127.0.0.1, ::1, localhost, the machine's hostname, the
// --ip address (every interface's address for 0.0.0.0 or ::) and the `kubernetes` Service's ClusterIP, and is made
// again (same CA) when they change, so kubectl or a node agent on another machine verifies https://<address>:<port>,
// and a bridge pod https://<ClusterIP>:443 (scripts/server-cert-names.mjs).
//
// `--nodes N` simulates N virtual nodes (default: wrangler.toml's VIRTUAL_NODES, 10; a larger N adds nodes to
// existing state). Every other argument goes to `wrangler dev`; `--persist-to`, `--config`/`-c` and `--env`/`-e`
// also go to `wrangler d1 migrations apply` so the schema lands in the same state directory the server uses.
// Defaults (each dropped when the user passes their own): --ip 127.0.0.1, --port 8787, --log-level log (the Worker's
// console.log lines, i.e. the audit log, are printed; `--log-level warn` quiets them),
// --local-protocol https (`-- --local-protocol http` serves plain http; anonymous rules then apply to kubectl, which
// sends no token over http). KUBEFLARE_TOKENS_FILE=<path> uses that token file (kube's --token-auth-file format)
// instead of a generated admin token; the kubeconfig carries its first system:masters token.
// Node built-ins only. wrangler runs on process.execPath, i.e. the Node 22 that `npm start` puts first on PATH.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureLocalCredentials } from './local-credentials.mjs'
import { databaseExists, migrationsApplied, writeMigrationsEnv } from './migrations-state.mjs'
import { hostHeaderNames, isWildcard, kubernetesServiceIP, wantedServerNames } from './server-cert-names.mjs'
import { wranglerLaunch } from './wrangler-launch.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// wrangler's CLI run directly, with Node's compile cache (scripts/wrangler-launch.mjs): about 0.3 s off every start.
const wrangler = wranglerLaunch(root)
const say = (msg) => process.stderr.write(`[kubeflare] ${msg}\n`)

if (!existsSync(wrangler.file)) {
  say(`${wrangler.file} is missing: run \`npm ci\` first.`)
  process.exit(1)
}
if (Number(process.versions.node.split('.')[0]) < 22) {
  say(
    `Node ${process.versions.node} is too old for wrangler (needs >= 22). Run this through \`npm start\`, which uses node_modules/.bin/node.`,
  )
  process.exit(1)
}

// `--nodes N` is ours: how many virtual nodes to simulate (VIRTUAL_NODES; nodes missing from existing state are
// added when the server starts). Everything else goes to wrangler dev.
const nodesAt = process.argv.findIndex((a, i) => i >= 2 && (a === '--nodes' || a.startsWith('--nodes=')))
let nodes = null
if (nodesAt >= 0) {
  const a = process.argv[nodesAt]
  nodes = a === '--nodes' ? process.argv[nodesAt + 1] : a.slice('--nodes='.length)
  process.argv.splice(nodesAt, a === '--nodes' ? 2 : 1)
  if (!/^\d+$/.test(nodes ?? '') || Number(nodes) < 1 || Number(nodes) > 3072) {
    say(`--nodes takes a number of virtual nodes from 1 to 3072, not ${JSON.stringify(nodes ?? '')}`)
    process.exit(2)
  }
}
// wrangler dev's HTTPS proxy loses a stream's close that follows its upgrade too closely (src/node/stream-close-delay.ts).
const userArgs = [
  '--var',
  'KUBEFLARE_STREAM_CLOSE_DELAY_MS:100',
  ...process.argv.slice(2),
  ...(nodes ? ['--var', `VIRTUAL_NODES:${nodes}`] : []),
]

// Find an option given as `--name value` or `--name=value` (yargs also accepts camelCase spellings).
function findOption(args, names) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--') break
    for (const n of names) {
      if (a === n) return { value: args[i + 1], args: [a, args[i + 1]].filter((x) => x !== undefined) }
      if (a.startsWith(`${n}=`)) return { value: a.slice(n.length + 1), args: [a] }
    }
  }
  return undefined
}

const ipOpt = findOption(userArgs, ['--ip'])
const portOpt = findOption(userArgs, ['--port'])
const logOpt = findOption(userArgs, ['--log-level', '--logLevel'])
const persistOpt = findOption(userArgs, ['--persist-to', '--persistTo'])
const configOpt = findOption(userArgs, ['--config', '-c'])
const envOpt = findOption(userArgs, ['--env', '-e'])
const protocolOpt = findOption(userArgs, ['--local-protocol', '--localProtocol'])

const ip = ipOpt?.value ?? '127.0.0.1'
const port = portOpt?.value ?? '8787'
const https = (protocolOpt?.value ?? 'https') === 'https'
// wrangler's own default for --persist-to.
const stateDir = resolve(root, persistOpt?.value ?? join('.wrangler', 'state'))

// Quiet and offline; each can still be overridden from the environment.
const env = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? 'false', // no Request.cf download + warning
  WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? 'false', // no telemetry (and its notice)
  WRANGLER_HIDE_BANNER: process.env.WRANGLER_HIDE_BANNER ?? 'true', // no banner, hence no npm update check
  // wrangler dev's local tracing: a span for every Durable Object call, alarm and D1 query, sent to a collector.
  // It made a scheduled pod create cost 2.3x the server CPU (19.4 -> 8.3 ms); X_LOCAL_OBSERVABILITY=true brings it back.
  X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? 'false',
  ...wrangler.env,
}

let child = null
let stopping = false
function stop(sig) {
  stopping = true
  if (child && child.exitCode === null && child.signalCode === null) {
    try {
      child.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig) // wrangler's bin wrapper only relays SIGINT/SIGTERM
    } catch {}
  } else if (!child) {
    process.exit(130)
  }
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stop(sig))
// `npm start` runs us under `sh -c`, and a SIGTERM sent to npm kills that shell without reaching us: stop when
// our parent goes away instead of leaving wrangler and workerd behind. (Only under npm, so that a deliberately
// backgrounded `node scripts/start.mjs &` keeps running after its shell exits.)
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent && !stopping) {
      say('parent process exited: stopping')
      stop('SIGTERM')
    }
  }, 1000).unref()
}

function run(args, opts) {
  return new Promise((resolve) => {
    child = spawn(process.execPath, [...wrangler.prefix, ...args], { cwd: root, env, ...opts })
    let out = ''
    child.stdout?.on('data', (d) => (out += d))
    child.stderr?.on('data', (d) => (out += d))
    child.on('error', (err) => resolve({ code: 1, signal: null, out: String(err) }))
    child.on('exit', (code, signal) => resolve({ code, signal, out }))
  })
}

// 0. Local credentials: TLS, tokens, the signing key, the env file wrangler reads them from, a kubeconfig.
// The kubeconfig's host is one the server certificate names: the --ip address, or 127.0.0.1 when it is a wildcard.
const host = isWildcard(ip) ? '127.0.0.1' : ip.includes(':') ? `[${ip}]` : ip
const url = `${https ? 'https' : 'http'}://${host}:${port}`
// Only requests naming this server are answered (a DNS-rebinding page cannot drive it); KUBEFLARE_ALLOWED_HOSTS adds names.
const allowedHosts = [
  '127.0.0.1',
  'localhost',
  '[::1]',
  ...(process.env.KUBEFLARE_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
]
if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) allowedHosts.push(host)
// The server certificate names the --ip address (every interface's for a wildcard) and the hostname, so that a client
// on another machine verifies it; the server answers requests by those names too.
// And the `kubernetes` Service's ClusterIP (SERVICE_CIDR's first address: a --var's, else wrangler.toml's), which
// pods of a node agent's bridge network dial.
const serviceCIDR =
  userArgs
    .find((a, i) => userArgs[i - 1] === '--var' && a.startsWith('SERVICE_CIDR:'))
    ?.slice('SERVICE_CIDR:'.length) ??
  /^SERVICE_CIDR\s*=\s*"([^"]*)"/m.exec(readFileSync(join(root, 'wrangler.toml'), 'utf8'))?.[1]
const serverNames = wantedServerNames(ip, { serviceIP: kubernetesServiceIP(serviceCIDR) })
for (const name of hostHeaderNames(serverNames)) if (!allowedHosts.includes(name)) allowedHosts.push(name)
let creds
try {
  creds = ensureLocalCredentials(stateDir, {
    tokensFile: process.env.KUBEFLARE_TOKENS_FILE,
    server: url,
    https,
    allowedHosts,
    serverNames,
  })
} catch (e) {
  say(`could not prepare local credentials: ${e.message}`)
  process.exit(1)
}
if (!creds.adminToken) say('the token file has no system:masters token: the kubeconfig carries no token')
if (creds.tlsMade === 'server') say(`a new server certificate (same CA) for ${hostHeaderNames(serverNames).join(', ')}`)
else if (creds.tlsMade === 'ca') say(`a new CA and server certificate for ${hostHeaderNames(serverNames).join(', ')}`)

// 1. Migrations, unless the database already records every one (read directly: no wrangler launch); another config
// or environment may name another database, so then wrangler decides. CI=1: "Using fallback value in
// non-interactive context: yes" instead of a prompt.
// A fresh state directory (no database yet) needs no wrangler launch at all: the Worker applies the migrations on
// its first request (src/api/local-migrations-gate.ts), handed over in an env file of their own.
let migrationsEnvFile = null
if (!configOpt && !envOpt && !databaseExists(stateDir)) {
  migrationsEnvFile = writeMigrationsEnv(join(stateDir, 'kubeflare'), join(root, 'migrations'))
  say('migrations: the server applies them on its first request (fresh state)')
} else if (!configOpt && !envOpt && (await migrationsApplied(stateDir, join(root, 'migrations')))) {
  say('migrations already up to date')
} else {
  const migrateArgs = [
    'd1',
    'migrations',
    'apply',
    'DB',
    '--local',
    ...(persistOpt?.args ?? []),
    ...(configOpt?.args ?? []),
    ...(envOpt?.args ?? []),
  ]
  say(`applying D1 migrations: wrangler ${migrateArgs.join(' ')}`)
  const mig = await run(migrateArgs, { env: { ...env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  if (stopping) process.exit(mig.code ?? 130)
  if (mig.code !== 0) {
    process.stderr.write(mig.out)
    say(`migrations failed (exit ${mig.code ?? mig.signal})`)
    process.exit(mig.code || 1)
  }
  say(`migrations ${mig.out.match(/No migrations to apply/) ? 'already up to date' : 'applied'}`)
}

// 2. wrangler dev, in the foreground with inherited stdio.
const devArgs = [
  'dev',
  ...(ipOpt ? [] : ['--ip', ip]),
  ...(portOpt ? [] : ['--port', port]),
  // 'log' is the level at which wrangler prints the Worker's console.log: the audit events (src/api/audit-log.ts).
  ...(logOpt ? [] : ['--log-level', 'log']),
  ...(protocolOpt ? [] : ['--local-protocol', 'https']),
  ...(https ? ['--https-key-path', creds.tls.key, '--https-cert-path', creds.tls.cert] : []),
  '--env-file',
  creds.envFile,
  ...(migrationsEnvFile ? ['--env-file', migrationsEnvFile] : []),
  ...userArgs,
]
say(`starting: wrangler ${devArgs.join(' ')}`)
const dev = run(devArgs, { stdio: 'inherit' })

// 3. Once /version answers, say how to point kubectl at it.
const ca = https ? readFileSync(creds.tls.caCert) : undefined
/** GET /version over our own TLS (trusting our CA only), or plain http. */
function probe() {
  if (!https)
    return fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) }).then(
      async (r) => (await r.arrayBuffer(), r.status),
    )
  return new Promise((resolvePromise, reject) => {
    const req = httpsRequest(`${url}/version`, { ca, timeout: 2000 }, (res) => {
      res.resume()
      res.on('end', () => resolvePromise(res.statusCode))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end()
  })
}
;(async () => {
  const deadline = Date.now() + 120_000
  while (!stopping && child && child.exitCode === null && Date.now() < deadline) {
    try {
      const status = await probe()
      if (stopping) return
      process.stderr.write(
        `\n[kubeflare] ready on ${url} (GET /version -> ${status}). Its kubeconfig (the CA and an admin token):\n` +
          `    kubectl --kubeconfig ${creds.kubeconfigFile} get pods\n` +
          `  or\n` +
          `    export KUBECONFIG=${creds.kubeconfigFile}\n` +
          `[kubeflare] Ctrl-C stops it.\n\n`,
      )
      return
    } catch {
      await new Promise((r) => setTimeout(r, 300))
    }
  }
})()

const res = await dev
if (res.signal) {
  // Re-raise so our parent sees the same termination; fall back to 128+n.
  process.removeAllListeners(res.signal)
  try {
    process.kill(process.pid, res.signal)
  } catch {}
  process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1, SIGKILL: 9 }[res.signal] ?? 1))
}
process.exit(res.code ?? 1)
