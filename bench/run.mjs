#!/usr/bin/env node
// `npm run bench`: kubeflare's throughput, latency and watch-delivery numbers, each next to a bare-platform baseline
// measured in the same run.
//
// 1. Bundles the Worker exactly as a deploy would (`wrangler deploy --dry-run --outdir bench/dist`).
// 2. Starts ONE Miniflare (not `wrangler dev`: its proxy costs 3-4x) on 127.0.0.1, cf:false, logRequests:false, with
//      kubeflare  bench/dist/index.js, DOs NAMESPACES/CLUSTER/WATCH_HUB (SQLite), D1 DB with migrations/*.sql applied,
//                 vars HISTORY_RETAIN/CHANGE_LOG_RETAIN and compatibility_date from wrangler.toml
//      baseline   bench/baseline-worker.js (bare Worker + SQLite DO + D1), Miniflare route */bare/*
//      probe      bench/probe-worker.js, route */__probe/*: calls the namespace DO's stats() (wakes, watchers) with a
//                 request-scoped stub. (A stub from mf.getDurableObjectNamespace() is held by Miniflare's Node proxy
//                 and keeps the object from ever being evicted, which would defeat the idle measurement.)
//    All three go through the same Miniflare entry worker, so kubeflare and its baselines pay the same overhead.
// 3. Drives them from this process: a pure Node closed-loop load generator (keep-alive http.Agent with BENCH_CONC
//    sockets and as many async loops, warm-up excluded, per-request latencies); WebSocket watchers on a minimal
//    RFC 6455 client (bench/ws-client.mjs: no permessage-deflate, like client-go's and the python client's), plus one
//    row on Node 22's global WebSocket; streamed fetch() for HTTP watchers. Per phase it also reads /proc to split CPU between this process, workerd and
//    other processes (the machine may be shared; ⚠ marks rows where others used >= 0.25 cores).
// 4. Prints one Markdown table (plus the machine line) on stdout, progress on stderr, and writes bench/results.json.
//
// Knobs (environment): BENCH_WARM_S (5), BENCH_MEASURE_S (8), BENCH_CONC (32), BENCH_SEED_PODS (10000),
// BENCH_SEED_BUDGET_S (150), BENCH_WS_WATCHERS (1000), BENCH_HTTP_WATCHERS (100), BENCH_WRITES (100),
// BENCH_WRITE_INTERVAL_MS (100), BENCH_IDLE_S (15), BENCH_LIST_N (50), BENCH_PAIRS (5), BENCH_QUIET_WAIT_S (15),
// BENCH_HARD_LIMIT_S (900; 3600 with a long phase), BENCH_NO_BUNDLE=1 (reuse bench/dist), BENCH_KUBELET_DELAY_MS (the
// simulated kubelet's start and stop delays; wrangler.toml's by default), BENCH_ONLY (comma list of phases:
// base,create,seed,get,identity,list,watch,idle,http,deploy,crd,agent,startup,entry, and the long ones, run only when
// named: scale,cluster,watch10k).
// agent (bench/agent-phase.mjs): a node agent against this Miniflare; exec of `true` over WebSocket against a local
// spawn (BENCH_AGENT_EXECS (100)), port-forward MB/s against a bare loopback TCP copy (BENCH_AGENT_PF_MB (100)), logs -f
// delivery latency (BENCH_AGENT_LOG_S (5)).
// Through `npm start` (bench/entry-phase.mjs): startup (first answer and first `kubectl get pods`, empty and existing
// state), entry (GET /version vs GET pod vs creates, BENCH_ENTRY_ROUNDS (2) alternating rounds; create → Running end
// to end for BENCH_E2E_PODS (1000) pods). Long phases: scale (BENCH_SCALE_PODS (100000) in one namespace within
// BENCH_SCALE_BUDGET_S (900), bench/scale-phase.mjs), cluster (BENCH_CLUSTER_PODS (1000000) over
// BENCH_CLUSTER_NAMESPACES (100) within BENCH_CLUSTER_BUDGET_S (1800)), watch10k (BENCH_WS10K_WATCHERS (10000)
// watchers, bench/watch-scale-phase.mjs).
// Node built-ins and the project's own miniflare/wrangler only.
import http from 'node:http'
import os from 'node:os'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { LeanWebSocket } from './ws-client.mjs'
import { migrationStatements, parseWranglerToml } from './miniflare-config.mjs'
import { deploymentPhase } from './deployment-phase.mjs'
import { crdPhase, crdRows } from './crd-phase.mjs'
import { agentPhase, agentRows } from './agent-phase.mjs'
import { entryPhase, entryRows, startupPhase } from './entry-phase.mjs'
import { clusterScalePhase, namespaceScalePhase, scaleRows } from './scale-phase.mjs'
import { watchScalePhase, watchScaleRows } from './watch-scale-phase.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const benchDir = join(root, 'bench')
const say = (msg) =>
  process.stderr.write(`[bench ${((performance.now() - T0) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`)
const T0 = performance.now()

if (Number(process.versions.node.split('.')[0]) < 22) {
  say(
    `Node ${process.versions.node} is too old (needs >= 22 for wrangler and the global WebSocket). Run \`npm run bench\`, which uses node_modules/.bin/node.`,
  )
  process.exit(1)
}

const env = (k, d) => (process.env[k] !== undefined && process.env[k] !== '' ? Number(process.env[k]) : d)
const CFG = {
  warmS: env('BENCH_WARM_S', 5),
  measureS: env('BENCH_MEASURE_S', 8),
  conc: env('BENCH_CONC', 32),
  seedPods: env('BENCH_SEED_PODS', 10000),
  seedBudgetS: env('BENCH_SEED_BUDGET_S', 150),
  wsWatchers: env('BENCH_WS_WATCHERS', 1000),
  httpWatchers: env('BENCH_HTTP_WATCHERS', 100),
  writes: env('BENCH_WRITES', 100),
  writeIntervalMs: env('BENCH_WRITE_INTERVAL_MS', 100),
  idleS: env('BENCH_IDLE_S', 15),
  listN: env('BENCH_LIST_N', 50),
  pairs: env('BENCH_PAIRS', 5),
}
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null
/** Phases that take minutes each: they run only when BENCH_ONLY names them. */
const LONG_PHASES = ['scale', 'cluster', 'watch10k']
const want = (phase) => (ONLY ? ONLY.has(phase) : !LONG_PHASES.includes(phase))

// ---- the whole run is bounded --------------------------------------------------------------------------------------
const HARD_LIMIT_MS = env('BENCH_HARD_LIMIT_S', LONG_PHASES.some(want) ? 3600 : 900) * 1000
let mf = null
const watchdog = setTimeout(async () => {
  say(`hard time limit (${HARD_LIMIT_MS / 1000}s) reached: giving up`)
  try {
    await mf?.dispose()
  } catch {}
  process.exit(2)
}, HARD_LIMIT_MS)
watchdog.unref()

// ---- helpers -------------------------------------------------------------------------------------------------------
const now = () => performance.now()
/** Wall-clock milliseconds with sub-ms resolution (same clock as now(), shifted). */
const wall = () => performance.timeOrigin + performance.now()

function pct(sorted, q) {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
function summarize(lat) {
  const s = Float64Array.from(lat).sort()
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN
  return {
    n: s.length,
    p50: pct(s, 0.5),
    p90: pct(s, 0.9),
    p99: pct(s, 0.99),
    max: s.length ? s[s.length - 1] : NaN,
    mean,
  }
}
const r1 = (x) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null)
const r2 = (x) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null)
const fmtMs = (x) =>
  x === null || !Number.isFinite(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)
const fmtRate = (x) => (x === null || !Number.isFinite(x) ? 'n/a' : Math.round(x).toString())

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('error', (e) => resolve({ code: 1, out: String(e) }))
    child.on('exit', (code) => resolve({ code, out }))
  })
}

// ---- CPU accounting (Linux /proc): who used the 2 cores during a phase -----------------------------------------------
// The machine may be shared: "foreign" is CPU used by processes other than this Node process and its workerd, so a
// phase that ran next to someone's test suite can be recognised. workerd's busiest thread shows whether the runtime's
// event loop (one thread runs every isolate) was the bottleneck.
const CLK_TCK = 100
function readStatJiffies(path) {
  try {
    const s = readFileSync(path, 'utf8')
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(f[1]), jiffies: Number(f[11]) + Number(f[12]) }
  } catch {
    return null
  }
}
function workerdPids() {
  const out = []
  try {
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue
      const st = readStatJiffies(`/proc/${d}/stat`)
      if (st && st.ppid === process.pid) out.push(Number(d))
    }
  } catch {}
  return out
}
function cpuSample() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    const total = cpu.reduce((a, b) => a + b, 0)
    const busy = total - cpu[3] - (cpu[4] ?? 0)
    const self = readStatJiffies('/proc/self/stat')?.jiffies ?? 0
    let child = 0
    const threads = new Map()
    for (const pid of workerdPids()) {
      child += readStatJiffies(`/proc/${pid}/stat`)?.jiffies ?? 0
      try {
        for (const tid of readdirSync(`/proc/${pid}/task`))
          threads.set(`${pid}/${tid}`, readStatJiffies(`/proc/${pid}/task/${tid}/stat`)?.jiffies ?? 0)
      } catch {}
    }
    return { t: now(), busy, self, child, threads }
  } catch {
    return null
  }
}
function cpuDelta(a, b) {
  if (!a || !b) return null
  const secs = (b.t - a.t) / 1000
  const cores = (j) => r2(j / CLK_TCK / secs)
  let maxThread = 0
  for (const [k, v] of b.threads) maxThread = Math.max(maxThread, v - (a.threads.get(k) ?? 0))
  const foreign = b.busy - a.busy - (b.self - a.self) - (b.child - a.child)
  return {
    seconds: r2(secs),
    nodeCores: cores(b.self - a.self),
    workerdCores: cores(b.child - a.child),
    workerdBusiestThread: cores(maxThread),
    foreignCores: cores(Math.max(0, foreign)),
  }
}
/** workerd CPU microseconds per delivered watch event (per watcher, per write): the fan-out cost. */
function perDelivery(cpu, delivered) {
  if (cpu && delivered > 0) cpu.workerdUsPerDelivery = r1((cpu.workerdCores * cpu.seconds * 1e6) / delivered)
  return cpu
}
const cpuStr = (c) =>
  c
    ? `cpu: node ${c.nodeCores}, workerd ${c.workerdCores} (busiest thread ${c.workerdBusiestThread}), others ${c.foreignCores} cores` +
      (c.workerdMsPerReq !== undefined ? `; workerd ${c.workerdMsPerReq} ms CPU/request` : '') +
      (c.workerdUsPerDelivery !== undefined ? `; workerd ${c.workerdUsPerDelivery} µs CPU/delivered event` : '')
    : ''

// ---- HTTP client -----------------------------------------------------------------------------------------------------
let PORT = 0
/**
 * The identities the run uses: an admin (system:masters, what every row but the identity rows sends) and a user whose
 * rights come from a RoleBinding (the identity rows, which pay for RBAC in full).
 */
const BENCH_TOKENS = { admin: 'bench-admin-token', user: 'bench-user-token' }
const BENCH_TOKEN_FILE = [
  `${BENCH_TOKENS.admin},bench-admin,uid-bench-admin,system:masters`,
  `${BENCH_TOKENS.user},bench-user,uid-bench-user,bench-users`,
].join('\n')
/** Hosts of the two extra kubeflare Workers the identity rows compare (the same bundle and Durable Objects). */
const OPEN_HOST = 'open.kubeflare.bench'
const RBAC_HOST = 'rbac.kubeflare.bench'
const agent = new http.Agent({ keepAlive: true, maxSockets: CFG.conc, maxFreeSockets: CFG.conc })

/** One request; resolves {status, body:string, t (ms)}; network errors resolve with status 0. */
function request({ method = 'GET', path, body, host, headers = {}, timeoutMs = 60_000, useAgent = agent }) {
  return new Promise((resolve) => {
    // Requests to kubeflare carry the admin's token unless they bring their own (or null for none).
    const h = { authorization: `Bearer ${BENCH_TOKENS.admin}`, ...headers }
    for (const [k, v] of Object.entries(h)) if (v === null) delete h[k]
    if (host) h.host = host
    if (body !== undefined) {
      h['content-type'] ??= 'application/json'
      h['content-length'] = Buffer.byteLength(body)
    }
    const start = now()
    const req = http.request({ host: '127.0.0.1', port: PORT, method, path, headers: h, agent: useAgent }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), t: now() - start, end: now() }),
      )
      res.on('error', (e) => resolve({ status: 0, body: String(e), t: now() - start, end: now() }))
    })
    req.on('error', (e) => resolve({ status: 0, body: String(e), t: now() - start, end: now() }))
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)))
    if (body !== undefined) req.write(body)
    req.end()
  })
}

const errorKey = (r) => `${r.status} ${r.body.slice(0, 300).replace(/\s+/g, ' ')}`

/**
 * Closed-loop load: `conc` async loops, each issuing make(loop, seq) back to back for warm-up + measured time.
 * Throughput and latency count the requests that completed inside the measured window.
 */
async function load(
  label,
  make,
  { conc = CFG.conc, warmS = CFG.warmS, measureS = CFG.measureS, okStatus = (s) => s >= 200 && s < 300 } = {},
) {
  const start = now()
  const warmEnd = start + warmS * 1000
  const end = warmEnd + measureS * 1000
  const lat = []
  let ok = 0,
    bad = 0,
    warmBad = 0,
    seq = 0,
    totalOk = 0
  const errors = new Map()
  let c0 = null
  const cpuTimer = setTimeout(() => (c0 = cpuSample()), warmS * 1000)
  const loop = async (li) => {
    while (now() < end) {
      const r = await request(make(li, seq++))
      const good = okStatus(r.status)
      if (good) totalOk++
      if (!good) errors.set(errorKey(r), (errors.get(errorKey(r)) ?? 0) + 1)
      if (r.end >= warmEnd && r.end <= end) {
        lat.push(r.t)
        if (good) ok++
        else bad++
      } else if (!good) warmBad++
    }
  }
  await Promise.all(Array.from({ length: conc }, (_, i) => loop(i)))
  clearTimeout(cpuTimer)
  const cpu = cpuDelta(c0, cpuSample())
  const s = summarize(lat)
  if (cpu && ok > 0) {
    // CPU milliseconds per successful request: robust against other load on the machine, unlike req/s.
    cpu.workerdMsPerReq = r2((cpu.workerdCores * cpu.seconds * 1000) / (ok + bad))
    cpu.nodeMsPerReq = r2((cpu.nodeCores * cpu.seconds * 1000) / (ok + bad))
  }
  const res = {
    label,
    cpu,
    conc,
    warmS,
    measureS,
    requests: lat.length,
    ok,
    errors: bad,
    warmupErrors: warmBad,
    totalOk,
    rps: ok / measureS,
    p50: s.p50,
    p90: s.p90,
    p99: s.p99,
    max: s.max,
    errorSamples: [...errors].slice(0, 5).map(([k, n]) => ({ count: n, sample: k })),
  }
  say(
    `${label}: ${fmtRate(res.rps)} req/s ok, p50 ${fmtMs(res.p50)} ms, p99 ${fmtMs(res.p99)} ms` +
      (bad || warmBad ? `, ${bad} errors (+${warmBad} in warm-up): ${[...errors.keys()][0]}` : '') +
      `; ${cpuStr(cpu)}`,
  )
  return res
}

/** Sequential requests (an unloaded latency sample). */
async function sequential(label, n, make, check) {
  const lat = []
  let bytes = 0,
    bad = 0,
    first = null
  const errors = new Map()
  const c0 = cpuSample()
  for (let i = 0; i < n; i++) {
    const r = await request(make(i))
    if (r.status !== 200) {
      bad++
      errors.set(errorKey(r), (errors.get(errorKey(r)) ?? 0) + 1)
      continue
    }
    first ??= r
    bytes = Buffer.byteLength(r.body)
    lat.push(r.t)
  }
  const cpu = cpuDelta(c0, cpuSample())
  const s = summarize(lat)
  const extra = first && check ? check(first) : {}
  const res = {
    label,
    cpu,
    n,
    ok: lat.length,
    errors: bad,
    p50: s.p50,
    p90: s.p90,
    p99: s.p99,
    max: s.max,
    mean: s.mean,
    bytes,
    ...extra,
    errorSamples: [...errors].slice(0, 5).map(([k, c]) => ({ count: c, sample: k })),
  }
  say(
    `${label}: p50 ${fmtMs(res.p50)} ms, p99 ${fmtMs(res.p99)} ms, ${bytes} B/response${bad ? `, ${bad} errors: ${[...errors.keys()][0]}` : ''}` +
      (extra.items !== undefined ? `, ${extra.items} items` : '') +
      (cpu && cpu.seconds >= 1 ? `; ${cpuStr(cpu)}` : ''),
  )
  return res
}

// ---- kubeflare request bodies ----------------------------------------------------------------------------------------
const podBody = (name, labels = {}, annotations, spec = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels, ...(annotations ? { annotations } : {}) },
    spec: { ...spec, containers: [{ name: 'c', image: 'nginx:1.25' }] },
  })
/**
 * Pods no scheduler picks up: one create = one change (no binding, kubelet status or Events follow). Used where the
 * bench needs one write per request (the 10k seed, the watch writes); the create rows use plain pods.
 */
const NOSCHED = { schedulerName: 'kubeflare-bench-unscheduled' }
const SENT = 'bench.kubeflare.dev/sent-ms'

// =====================================================================================================================
const results = { machine: {}, config: CFG, phases: {}, notes: [], problems: [] }
const problem = (msg) => {
  results.problems.push(msg)
  say(`PROBLEM: ${msg}`)
}

async function main() {
  results.machine = {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memGiB: r1(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: new Date().toISOString(),
  }

  // ---- 1. bundle -----------------------------------------------------------------------------------------------------
  const wranglerJs = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
  if (!existsSync(wranglerJs)) throw new Error(`${wranglerJs} is missing: run \`npm ci\` first`)
  const childEnv = {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
  }
  let t = now()
  if (process.env.BENCH_NO_BUNDLE === '1' && existsSync(join(benchDir, 'dist', 'index.js'))) {
    say('BENCH_NO_BUNDLE=1: reusing the existing bench/dist/index.js')
    results.bundle = { reused: true }
  } else {
    const b = await run(process.execPath, [wranglerJs, 'deploy', '--dry-run', '--outdir', 'bench/dist'], {
      env: childEnv,
    })
    if (b.code !== 0 || !existsSync(join(benchDir, 'dist', 'index.js'))) {
      process.stderr.write(b.out)
      throw new Error(`bundling failed (exit ${b.code}); BENCH_NO_BUNDLE=1 reuses the last bench/dist/index.js`)
    }
    results.bundle = { seconds: r2((now() - t) / 1000) }
  }
  const bundleBytes = readFileSync(join(benchDir, 'dist', 'index.js')).length
  results.bundle.bytes = bundleBytes
  say(`bundle bench/dist/index.js: ${(bundleBytes / 1024).toFixed(0)} KiB (${((now() - t) / 1000).toFixed(1)} s)`)

  // ---- 2. Miniflare ----------------------------------------------------------------------------------------------------
  const { Miniflare, convertV4MiniflareOptions } = await import('miniflare')
  const toml = parseWranglerToml(readFileSync(join(root, 'wrangler.toml'), 'utf8'))
  // Every wrangler.toml var, with enough virtual nodes that the scheduled-create row never runs out of room.
  const vars = {
    ...toml.vars,
    HISTORY_RETAIN: toml.vars.HISTORY_RETAIN ?? '5000',
    CHANGE_LOG_RETAIN: toml.vars.CHANGE_LOG_RETAIN ?? '100000',
    VIRTUAL_NODES: '60',
    ...(process.env.BENCH_KUBELET_DELAY_MS
      ? {
          KUBELET_START_DELAY_MS: process.env.BENCH_KUBELET_DELAY_MS,
          KUBELET_STOP_DELAY_MS: process.env.BENCH_KUBELET_DELAY_MS,
        }
      : {}),
    KUBEFLARE_TOKENS: BENCH_TOKEN_FILE,
    // The platform's rate limiter is not part of what is measured (and would refuse a load generator).
    KUBEFLARE_RATE_LIMIT: 'off',
  }
  /** The identity rows' two Workers: this bundle with its Durable Objects reached from another Worker script. */
  const identityWorker = (name, host, settings) => ({
    name,
    modules: true,
    scriptPath: join(benchDir, 'dist', 'index.js'),
    compatibilityDate: toml.compatibilityDate,
    compatibilityFlags: toml.compatibilityFlags,
    routes: [`${host}/*`],
    bindings: { ...vars, ...settings },
    durableObjects: {
      NAMESPACES: { className: 'NamespaceObject', scriptName: 'kubeflare', ...sqlite },
      CLUSTER: { className: 'ClusterObject', scriptName: 'kubeflare', ...sqlite },
      WATCH_HUB: { className: 'WatchHub', scriptName: 'kubeflare', ...sqlite },
    },
    d1Databases: { DB: 'kubeflare-bench' },
  })
  const logs = []
  const sqlite = { useSQLite: true }
  t = now()
  const mfStartedAt = Date.now() // the scale phases find this run's SQLite files by it
  mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      cf: false,
      logRequests: false,
      handleStructuredLogs: (l) => {
        if (logs.length < 20000) logs.push(l)
      },
      workers: [
        {
          name: 'kubeflare',
          modules: true,
          scriptPath: join(benchDir, 'dist', 'index.js'),
          compatibilityDate: toml.compatibilityDate,
          compatibilityFlags: toml.compatibilityFlags,
          bindings: vars,
          durableObjects: {
            NAMESPACES: { className: 'NamespaceObject', ...sqlite },
            CLUSTER: { className: 'ClusterObject', ...sqlite },
            WATCH_HUB: { className: 'WatchHub', ...sqlite },
            NODE_TUNNELS: { className: 'NodeTunnel', ...sqlite },
          },
          d1Databases: { DB: 'kubeflare-bench' },
        },
        {
          name: 'baseline',
          modules: true,
          scriptPath: join(benchDir, 'baseline-worker.js'),
          compatibilityDate: toml.compatibilityDate,
          compatibilityFlags: toml.compatibilityFlags,
          routes: ['*/bare/*'], // every /bare/... path; kubeflare has none
          durableObjects: { BARE: { className: 'BareObject', ...sqlite } },
          d1Databases: { BDB: 'baseline-bench' },
        },
        // No identity at all (anonymous, AlwaysAllow) and full identity (a token, RBAC): the same path otherwise.
        identityWorker('kubeflare-open', OPEN_HOST, { KUBEFLARE_AUTHORIZATION_MODE: 'AlwaysAllow' }),
        identityWorker('kubeflare-rbac', RBAC_HOST, {}),
        {
          name: 'probe',
          modules: true,
          scriptPath: join(benchDir, 'probe-worker.js'),
          compatibilityDate: toml.compatibilityDate,
          routes: ['*/__probe/*'],
          durableObjects: { NAMESPACES: { className: 'NamespaceObject', scriptName: 'kubeflare', ...sqlite } },
        },
      ],
    }),
  )
  const url = await mf.ready
  PORT = Number(new URL(url).port)
  say(
    `Miniflare ready on ${url} in ${((now() - t) / 1000).toFixed(1)} s (compatibility_date ${toml.compatibilityDate}, vars ${JSON.stringify(vars)})`,
  )

  // D1 migrations
  const db = await mf.getD1Database('DB', 'kubeflare')
  const migDir = join(root, 'migrations')
  for (const f of readdirSync(migDir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    for (const stmt of migrationStatements(readFileSync(join(migDir, f), 'utf8'))) await db.exec(stmt)
    say(`applied migration ${f}`)
  }

  // Sanity: both workers answer.
  const v = await request({ path: '/version' })
  if (v.status !== 200) throw new Error(`kubeflare GET /version -> ${v.status} ${v.body.slice(0, 300)}`)
  const n0 = await request({ path: '/bare/noop' })
  if (n0.status !== 200 || n0.body !== 'ok')
    throw new Error(`baseline GET /noop -> ${n0.status} ${n0.body.slice(0, 300)}`)

  // Namespaces the phases use.
  const spread = Array.from({ length: 8 }, (_, i) => `spread-${i}`)
  // The paired rounds write into namespaces of their own, so the rows after them meet the same state as without them.
  const pairSpread = Array.from({ length: 8 }, (_, i) => `pairs-${i}`)
  for (const ns of ['one', ...spread, 'pairs-one', ...pairSpread, 'big', 'w', 'hw', 'deploy']) {
    const r = await request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    })
    if (r.status !== 201) throw new Error(`creating namespace ${ns}: ${r.status} ${r.body.slice(0, 300)}`)
  }
  // A probe pod: its JSON size sizes the baseline rows and messages, so the bare numbers move the same bytes.
  const probe = await request({
    method: 'POST',
    path: '/api/v1/namespaces/one/pods',
    body: podBody('probe', { app: 'load' }, { [SENT]: String(wall()) }),
  })
  if (probe.status !== 201) throw new Error(`creating a pod: ${probe.status} ${probe.body.slice(0, 300)}`)
  const podBytes = Buffer.byteLength(probe.body)
  results.podBytes = podBytes
  probeJson = probe.body
  say(`namespaces created; a stored pod is ${podBytes} B of JSON`)

  const P = results.phases

  // The machine may be shared: wait a little for other processes to calm down (bounded), and record what we saw.
  {
    const maxS = env('BENCH_QUIET_WAIT_S', 15)
    const tq = now()
    let d = null
    while (now() - tq < maxS * 1000) {
      const a = cpuSample()
      await sleep(2000)
      d = cpuDelta(a, cpuSample())
      if (!d || d.foreignCores < 0.3) break
    }
    results.quietGate = { waitedS: r1((now() - tq) / 1000), foreignCores: d?.foreignCores ?? null }
    say(
      `other processes use ${d?.foreignCores ?? '?'} cores (waited ${results.quietGate.waitedS} s for a quiet machine, at most ${maxS} s)`,
    )
    if (d && d.foreignCores >= 0.3)
      P_note(`the machine was busy with other processes (${d.foreignCores} cores) when the run started`)
  }

  // ---- 2b. a 100-replica Deployment on 10 virtual nodes (first, while those nodes are empty) --------------------------
  if (want('deploy')) {
    P.deploy = await deploymentPhase(request, 'deploy')
    results.kubeletDelays = `start ${vars.KUBELET_START_DELAY_MS ?? 0} ms, stop ${vars.KUBELET_STOP_DELAY_MS ?? 0} ms`
    if (P.deploy.error) problem(`deploy: ${P.deploy.error}`)
    else say(`deployment of 100: ${JSON.stringify(P.deploy)}`)
  }

  // ---- 3. bare baselines --------------------------------------------------------------------------------------------
  if (want('base')) {
    P.bareNoop = await load('bare no-op Worker', () => ({ path: '/bare/noop' }))
    P.bareInsert = await load('bare DO SQLite insert', () => ({ method: 'POST', path: '/bare/insert', body: '' }))
    const s = await request({ method: 'POST', path: `/bare/seed?n=${CFG.seedPods}&size=${podBytes}`, body: '' })
    if (s.status !== 200) problem(`baseline seed: ${s.status} ${s.body.slice(0, 200)}`)
    const d = await request({ method: 'POST', path: `/bare/d1seed?n=${CFG.seedPods}&size=${podBytes}`, body: '' })
    if (d.status !== 200) problem(`baseline d1seed: ${d.status} ${d.body.slice(0, 200)}`)
  }
  // (Each remaining baseline runs right before its kubeflare counterpart, so both see similar machine conditions.)

  // ---- 4. create throughput --------------------------------------------------------------------------------------------
  if (want('create')) {
    const maxRv = async () => (await db.prepare('SELECT COALESCE(MAX(rv), 0) AS rv FROM changes').first()).rv
    /** Waits until the change log stops growing (controllers finish their follow-ups), then describes the rv range. */
    const amplification = async (fromRv, created) => {
      const t = now()
      let last = await maxRv()
      for (;;) {
        await sleep(500)
        const cur = await maxRv()
        if (cur === last || now() - t > 15_000) break
        last = cur
      }
      const settleS = r1((now() - t) / 1000 - 0.5)
      const { results: byType } = await db
        .prepare(
          'SELECT resource, type, COUNT(*) AS n FROM changes WHERE rv > ? AND rv <= ? GROUP BY resource, type ORDER BY n DESC',
        )
        .bind(fromRv, last)
        .all()
      const c = await db
        .prepare(
          "SELECT COUNT(*) AS changes, COUNT(DISTINCT ns || ':' || ts) AS commits FROM changes WHERE rv > ? AND rv <= ?",
        )
        .bind(fromRv, last)
        .first()
      return {
        created,
        changes: c.changes,
        changesPerCreate: r2(c.changes / Math.max(1, created)),
        commits: c.commits,
        changesPerCommit: r2(c.changes / Math.max(1, c.commits)),
        byType: Object.fromEntries(byType.map((r) => [`${r.resource} ${r.type}`, r.n])),
        followUpsSettledAfterS: settleS,
      }
    }
    // The API's create path: pods no scheduler takes, so each create is exactly one write (what the target is about).
    let rv0 = await maxRv()
    P.create1 = await load('create pod, 1 namespace', (li, i) => ({
      method: 'POST',
      path: '/api/v1/namespaces/one/pods',
      body: podBody(`c1-${li}-${i}`, { app: 'load' }, undefined, NOSCHED),
    }))
    P.create1.writes = await amplification(rv0, P.create1.totalOk)
    say(`create, 1 namespace: ${JSON.stringify(P.create1.writes)}`)
    rv0 = await maxRv()
    P.create8 = await load('create pod, 8 namespaces', (li, i) => ({
      method: 'POST',
      path: `/api/v1/namespaces/${spread[li % 8]}/pods`,
      body: podBody(`c8-${li}-${i}`, { app: 'load' }, undefined, NOSCHED),
    }))
    P.create8.writes = await amplification(rv0, P.create8.totalOk)
    say(`create, 8 namespaces: ${JSON.stringify(P.create8.writes)}`)
    // Paired rounds: the bare insert and the create row measured back to back, BENCH_PAIRS times. The single rows
    // above sit a minute or more from the bare baseline, and this machine's speed drifts by ±15 % over that much
    // time; a ratio taken within one round cancels the drift. The target is judged on the median of the rounds.
    for (const [k, path] of [
      ['create1', () => '/api/v1/namespaces/pairs-one/pods'],
      ['create8', (li) => `/api/v1/namespaces/${pairSpread[li % 8]}/pods`],
    ]) {
      const rounds = []
      for (let r = 0; r < CFG.pairs; r++) {
        const short = { warmS: 2, measureS: 4 }
        const bare = await load(
          `bare DO SQLite insert (paired round ${r + 1})`,
          () => ({ method: 'POST', path: '/bare/insert', body: '' }),
          short,
        )
        const row = await load(
          `${P[k].label} (paired round ${r + 1})`,
          (li, i) => ({
            method: 'POST',
            path: path(li),
            body: podBody(`${k}-r${r}-${li}-${i}`, { app: 'load' }, undefined, NOSCHED),
          }),
          short,
        )
        rounds.push({ bare: r1(bare.rps), row: r1(row.rps), ratio: r2(row.rps / bare.rps) })
      }
      const ratios = rounds.map((x) => x.ratio).sort((a, b) => a - b)
      P[k].paired = {
        rounds,
        median: ratios[Math.floor(ratios.length / 2)],
        min: ratios[0],
        max: ratios[ratios.length - 1],
      }
      say(`${k} paired rounds: ${JSON.stringify(P[k].paired)}`)
    }
    // The whole simulated cluster at work: every create is also scheduled, started and evented.
    rv0 = await maxRv()
    P.createSched = await load('create pod with scheduler and kubelet, 8 namespaces', (li, i) => ({
      method: 'POST',
      path: `/api/v1/namespaces/${spread[li % 8]}/pods`,
      body: podBody(`cs-${li}-${i}`, { app: 'load' }),
    }))
    P.createSched.writes = await amplification(rv0, P.createSched.totalOk)
    say(`create with lifecycle, 8 namespaces: ${JSON.stringify(P.createSched.writes)}`)
    // Decomposition: the same create with dryRun=All runs decode, RPC, admission and planning but commits nothing.
    P.createDry = await load('create pod, 1 namespace, dryRun=All (no commit)', (li, i) => ({
      method: 'POST',
      path: '/api/v1/namespaces/one/pods?dryRun=All',
      body: podBody(`dry-${li}-${i}`, { app: 'load' }),
    }))
  }

  // ---- 5. seed 10k pods in "big" through the API -----------------------------------------------------------------------
  let seeded = 0
  if (want('seed') || want('get') || want('list')) {
    t = now()
    const deadline = t + CFG.seedBudgetS * 1000
    let next = 0,
      bad = 0
    const lat = []
    const errors = new Map()
    const c0 = cpuSample()
    const loop = async () => {
      while (next < CFG.seedPods && now() < deadline) {
        const i = next++
        const name = `big-${String(i).padStart(5, '0')}`
        const r = await request({
          method: 'POST',
          path: '/api/v1/namespaces/big/pods',
          body: podBody(name, { app: 'big', shard: String(i % 100) }, undefined, NOSCHED),
        })
        if (r.status === 201) {
          seeded++
          lat.push(r.t)
        } else {
          bad++
          errors.set(errorKey(r), (errors.get(errorKey(r)) ?? 0) + 1)
        }
      }
    }
    await Promise.all(Array.from({ length: CFG.conc }, loop))
    const secs = (now() - t) / 1000
    const cpu = cpuDelta(c0, cpuSample())
    if (cpu && seeded + bad > 0) cpu.workerdMsPerReq = r2((cpu.workerdCores * cpu.seconds * 1000) / (seeded + bad))
    const s = summarize(lat)
    P.seed = {
      cpu,
      pods: seeded,
      target: CFG.seedPods,
      seconds: r2(secs),
      rps: seeded / secs,
      p50: s.p50,
      p99: s.p99,
      errors: bad,
      errorSamples: [...errors].slice(0, 5).map(([k, n]) => ({ count: n, sample: k })),
      complete: seeded === CFG.seedPods,
    }
    say(
      `seeded ${seeded}/${CFG.seedPods} pods into "big" in ${secs.toFixed(1)} s (${fmtRate(P.seed.rps)} creates/s, p50 ${fmtMs(s.p50)} ms, p99 ${fmtMs(s.p99)} ms)` +
        (bad ? `, ${bad} errors: ${[...errors.keys()][0]}` : '') +
        `; ${cpuStr(cpu)}`,
    )
    {
      const r = await db
        .prepare("SELECT COUNT(*) AS changes, COUNT(DISTINCT ts) AS commits FROM changes WHERE ns = 'big'")
        .first()
      P.seed.writes = {
        changes: r.changes,
        commits: r.commits,
        changesPerCommit: r2(r.changes / Math.max(1, r.commits)),
      }
    }
    if (!P.seed.complete)
      problem(
        `seeding stopped at ${seeded}/${CFG.seedPods} pods after ${secs.toFixed(0)} s (budget ${CFG.seedBudgetS} s)`,
      )
  }

  // ---- 6. get throughput ----------------------------------------------------------------------------------------------
  if (want('base'))
    P.bareGet = await load('bare DO get by key', () => ({
      path: `/bare/get?k=k${Math.floor(Math.random() * CFG.seedPods)}`,
    }))
  if (want('get') && seeded > 0) {
    P.getPod = await load('get pod', () => ({
      path: `/api/v1/namespaces/big/pods/big-${String(Math.floor(Math.random() * seeded)).padStart(5, '0')}`,
    }))
  }

  // ---- 6b. what identity costs: authentication + RBAC against none, GET and create -------------------------------------
  // Two Workers of the same bundle over the same Durable Objects: one anonymous under AlwaysAllow (authentication
  // finds no credential, authorization is skipped), one with a namespace-scoped user's token judged by RBAC (token
  // hash and lookup, the RBAC cache, compiled rules). Rounds alternate so both see the same machine.
  if (want('identity') && seeded > 0) {
    for (const ns of ['big', 'idn']) {
      if (ns === 'idn') {
        const n = await request({
          method: 'POST',
          path: '/api/v1/namespaces',
          body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'idn' } }),
        })
        if (n.status !== 201) problem(`namespace idn: ${n.status} ${n.body.slice(0, 200)}`)
      }
      const rb = await request({
        method: 'POST',
        path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
        body: JSON.stringify({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'bench-users-edit' },
          subjects: [{ kind: 'Group', name: 'bench-users', apiGroup: 'rbac.authorization.k8s.io' }],
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        }),
      })
      if (rb.status !== 201) problem(`rolebinding in ${ns}: ${rb.status} ${rb.body.slice(0, 200)}`)
    }
    const user = { authorization: `Bearer ${BENCH_TOKENS.user}` }
    const randomPod = () =>
      `/api/v1/namespaces/big/pods/big-${String(Math.floor(Math.random() * seeded)).padStart(5, '0')}`
    const check = await request({ path: randomPod(), host: RBAC_HOST, headers: user })
    if (check.status !== 200) problem(`the RBAC user cannot GET a pod: ${check.status} ${check.body.slice(0, 200)}`)
    const denied = await request({ path: '/api/v1/namespaces/one/pods', host: RBAC_HOST, headers: user })
    if (denied.status !== 403) problem(`the RBAC user was not refused outside its namespaces: ${denied.status}`)
    const short = { warmS: 2, measureS: 4 }
    for (const [k, make] of [
      ['identityGet', (host, headers) => () => ({ path: randomPod(), host, headers })],
      [
        'identityCreate',
        (host, headers, tag) => (li, i) => ({
          method: 'POST',
          path: '/api/v1/namespaces/idn/pods',
          host,
          headers,
          body: podBody(`${tag}-${li}-${i}`, { app: 'load' }, undefined, NOSCHED),
        }),
      ],
    ]) {
      const rounds = []
      for (let r = 0; r < CFG.pairs; r++) {
        // Which goes first alternates, so a drift of the machine's speed within a round cancels over the rounds.
        const measure = (which) =>
          which === 'open'
            ? load(`${k}: no identity (round ${r + 1})`, make(OPEN_HOST, { authorization: null }, `o${r}`), short)
            : load(`${k}: token + RBAC (round ${r + 1})`, make(RBAC_HOST, user, `r${r}`), short)
        const first = r % 2 === 0 ? 'open' : 'rbac'
        const a = await measure(first)
        const b = await measure(first === 'open' ? 'rbac' : 'open')
        const [open, rbac] = first === 'open' ? [a, b] : [b, a]
        rounds.push({
          open: { rps: r1(open.rps), p50: open.p50, errors: open.errors },
          rbac: { rps: r1(rbac.rps), p50: rbac.p50, errors: rbac.errors },
          throughput: r2(rbac.rps / open.rps),
          p50: r2(rbac.p50 / open.p50),
          cpu: r2((rbac.cpu?.workerdMsPerReq ?? Number.NaN) / (open.cpu?.workerdMsPerReq ?? Number.NaN)),
        })
      }
      const median = (key) => {
        const xs = rounds
          .map((x) => x[key])
          .filter(Number.isFinite)
          .sort((a, b) => a - b)
        return xs.length ? xs[Math.floor(xs.length / 2)] : null
      }
      P[k] = { rounds, throughput: median('throughput'), p50: median('p50'), cpu: median('cpu') }
      say(`${k}: ${JSON.stringify(P[k])}`)
    }
  }

  // ---- 7. label-selected lists of the 10k-pod namespace ------------------------------------------------------------
  if (want('list') && seeded > 0) {
    const countItems = (r) => ({ items: JSON.parse(r.body).items.length })
    if (want('base'))
      P.bareList = await sequential(
        'bare DO indexed select, 1% of 10k rows',
        CFG.listN,
        () => ({ path: '/bare/list?shard=7' }),
        countItems,
      )
    P.listNs = await sequential(
      'list big?labelSelector=shard=7 (namespaced)',
      CFG.listN,
      () => ({ path: '/api/v1/namespaces/big/pods?labelSelector=shard%3D7' }),
      countItems,
    )
    if (want('base'))
      P.bareD1List = await sequential(
        'bare D1 indexed select, 1% of 10k rows',
        CFG.listN,
        () => ({ path: '/bare/d1list?shard=7' }),
        countItems,
      )
    P.listAll = await sequential(
      'list /api/v1/pods?labelSelector=shard=7 (cluster-wide)',
      CFG.listN,
      () => ({ path: '/api/v1/pods?labelSelector=shard%3D7' }),
      countItems,
    )
    const expect = Math.floor(seeded / 100) + (seeded % 100 > 7 ? 1 : 0)
    for (const [k, r] of [
      ['namespaced', P.listNs],
      ['cluster-wide', P.listAll],
    ]) {
      if (r.items !== undefined && r.items !== expect)
        problem(`${k} list returned ${r.items} items, expected ${expect}`)
    }
  }

  // ---- 8. watches -----------------------------------------------------------------------------------------------------
  if (want('watch') || want('idle')) await watchPhases(P)
  if (want('http')) await httpWatchPhases(P)

  // ---- 9. the 10k-pod namespace waking up after being idle (evicted during the watch phases) -------------------------
  if (seeded > 0 && (want('watch') || want('http'))) {
    const c0 = cpuSample()
    const r = await request({ path: '/api/v1/namespaces/big/pods/big-00000' })
    const first = r.t
    const r2_ = await request({ path: '/api/v1/namespaces/big/pods/big-00001' })
    await sleep(3000)
    const cpu = cpuDelta(c0, cpuSample())
    P.bigWake = { firstGetMs: r2(first), status: r.status, secondGetMs: r2(r2_.t), cpuFor3s: cpu }
    say(
      `first GET in the idle 10k-pod namespace: ${fmtMs(first)} ms (${r.status}), next ${fmtMs(r2_.t)} ms; the 3 s after: ${cpuStr(cpu)}`,
    )
  }

  // ---- 9b. a custom resource (20-field schema, 3 CEL rules) against a Pod: create, get, list (bench/crd-phase.mjs) ----
  if (want('crd')) {
    P.crd = await crdPhase({ request, load, sequential, say })
    if (P.crd.error) problem(`crd: ${P.crd.error}`)
  }

  // ---- 9c. a real node: exec, port-forward and logs -f through a node agent's tunnel (bench/agent-phase.mjs) -------
  if (want('agent')) {
    P.agent = await agentPhase({ root, port: PORT, token: BENCH_TOKENS.admin, request, say })
    if (P.agent.error) problem(`agent: ${P.agent.error}`)
  }

  // ---- 10. through `npm start`: start-up, the create rows against a Worker-only request, create → Running --------------
  if (want('startup')) P.startup = await startupPhase({ root, say })
  if (want('entry')) {
    P.entry = await entryPhase({
      root,
      say,
      conc: CFG.conc,
      rounds: env('BENCH_ENTRY_ROUNDS', 2),
      e2ePods: env('BENCH_E2E_PODS', 1000),
    })
    if (P.entry.error) problem(`entry: ${P.entry.error}`)
  }

  // ---- 11. the long phases: 100,000 pods in a namespace, 1,000,000 over 100, 10,000 watchers ------------------------
  const scaleCtx = { request, say, port: PORT, cpuSample, cpuDelta }
  if (want('scale'))
    P.scale = await namespaceScalePhase(scaleCtx, {
      pods: env('BENCH_SCALE_PODS', 100_000),
      budgetS: env('BENCH_SCALE_BUDGET_S', 900),
      conc: CFG.conc,
      since: mfStartedAt,
    })
  if (want('cluster'))
    P.cluster = await clusterScalePhase(scaleCtx, {
      pods: env('BENCH_CLUSTER_PODS', 1_000_000),
      namespaces: env('BENCH_CLUSTER_NAMESPACES', 100),
      budgetS: env('BENCH_CLUSTER_BUDGET_S', 1800),
      conc: CFG.conc,
      since: mfStartedAt,
    })
  if (want('watch10k')) {
    P.watch10k = await watchScalePhase(scaleCtx, {
      watchers: env('BENCH_WS10K_WATCHERS', 10_000),
      writes: CFG.writes,
      intervalMs: CFG.writeIntervalMs,
      idleS: CFG.idleS,
      token: BENCH_TOKENS.admin,
      cpuSample,
      cpuDelta,
    })
    if (P.watch10k.error) problem(`watch10k: ${P.watch10k.error}`)
  }

  // ---- logs -------------------------------------------------------------------------------------------------------------
  const errLogs = logs.filter((l) => l.level === 'error' || l.level === 'warn')
  results.workerLogs = {
    total: logs.length,
    errorsOrWarnings: errLogs.length,
    samples: [...new Set(errLogs.map((l) => l.message.slice(0, 300)))].slice(0, 10),
  }
  if (errLogs.length) say(`worker logged ${errLogs.length} error/warn lines, e.g. ${errLogs[0].message.slice(0, 200)}`)
}

// ---- watch machinery ---------------------------------------------------------------------------------------------------

/**
 * Collects receipts: latency from the writer's send time (annotation) and from the write's response time.
 * Receive times go into a Float64Array per write, not 100,000 small arrays per phase: the load generator shares
 * the machine with workerd, so its own garbage collection lands in every latency it records.
 */
function makeCollector(expectedWatchers) {
  const sendTimes = new Map() // name -> sent (wall ms)
  const respTimes = new Map() // name -> response received (wall ms)
  const received = new Map() // name -> { at: Float64Array of receive times (wall ms), n }
  let parseErrors = 0,
    otherEvents = 0
  return {
    sendTimes,
    respTimes,
    count: (name) => received.get(name)?.n ?? 0,
    onLine(line, recv) {
      if (!line) return
      let ev
      try {
        ev = JSON.parse(line)
      } catch {
        parseErrors++
        return
      }
      const meta = ev?.object?.metadata
      const sent = Number(meta?.annotations?.[SENT])
      if (!meta || !Number.isFinite(sent) || ev.type !== 'ADDED' || sendTimes.get(meta.name) !== sent) {
        otherEvents++
        return
      }
      let r = received.get(meta.name)
      if (!r) received.set(meta.name, (r = { at: new Float64Array(expectedWatchers), n: 0 }))
      if (r.n === r.at.length) {
        const grown = new Float64Array(r.at.length * 2)
        grown.set(r.at)
        r.at = grown
      }
      r.at[r.n++] = recv
    },
    stats(names) {
      const fromSend = [],
        fromResp = []
      for (const name of names) {
        const r = received.get(name)
        if (!r) continue
        const sent = sendTimes.get(name)
        const resp = respTimes.get(name)
        for (let i = 0; i < r.n; i++) {
          fromSend.push(r.at[i] - sent)
          if (resp !== undefined) fromResp.push(r.at[i] - resp)
        }
      }
      const expected = names.length * expectedWatchers
      const a = summarize(fromSend),
        b = summarize(fromResp)
      return {
        delivered: fromSend.length,
        expected,
        missing: expected - fromSend.length,
        p50: a.p50,
        p90: a.p90,
        p99: a.p99,
        max: a.max,
        afterResponseP50: b.p50,
        afterResponseP99: b.p99,
        parseErrors,
        otherEvents,
      }
    },
  }
}

/** Paced writes: one every intervalMs, each stamped with its send time; answers the names written. */
async function pacedWrites(label, n, intervalMs, doWrite, col) {
  const names = []
  const pending = []
  const writeLat = []
  let failures = 0,
    firstFailure = ''
  const start = now()
  for (let i = 0; i < n; i++) {
    const due = start + i * intervalMs
    const wait = due - now()
    if (wait > 0) await sleep(wait)
    const name = `${label}-${i}`
    const sent = wall()
    col.sendTimes.set(name, sent)
    names.push(name)
    pending.push(
      doWrite(name, sent).then((r) => {
        col.respTimes.set(name, wall())
        writeLat.push(r.t)
        if (r.status < 200 || r.status >= 300) {
          failures++
          firstFailure ||= errorKey(r)
        }
      }),
    )
  }
  await Promise.all(pending)
  const s = summarize(writeLat)
  return { names, failures, firstFailure, writeP50: s.p50, writeP99: s.p99 }
}

async function waitFor(cond, timeoutMs, stepMs = 50) {
  const deadline = now() + timeoutMs
  while (now() < deadline) {
    if (cond()) return true
    await sleep(stepMs)
  }
  return cond()
}

/** Opens n WebSocket watchers, `batch` at a time; answers the sockets and timing. */
async function openWebSockets(n, url, col, { batch = 50, client = 'lean' } = {}) {
  const sockets = new Array(n)
  let failed = 0,
    firstError = ''
  const t = now()
  for (let i = 0; i < n; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, (_, j) => {
        const idx = i + j
        return new Promise((resolve) => {
          // Watchers carry the admin's token: as a header, or in kube's bearer subprotocol where the client
          // (Node's WebSocket) cannot send headers.
          const token = BENCH_TOKENS.admin
          const ws =
            client === 'node'
              ? // kube's authenticator wants a protocol beside the token's to echo back.
                new WebSocket(url, [
                  'bench',
                  `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`,
                ])
              : new LeanWebSocket(url, { headers: { authorization: `Bearer ${token}` } })
          sockets[idx] = ws
          const timer = setTimeout(() => {
            failed++
            firstError ||= 'open timed out after 15 s'
            resolve()
          }, 15_000)
          ws.addEventListener('open', () => {
            clearTimeout(timer)
            resolve()
          })
          ws.addEventListener('error', (e) => {
            clearTimeout(timer)
            if (ws.readyState !== 1) {
              failed++
              firstError ||= String(e?.message ?? e?.error ?? 'error')
              resolve()
            }
          })
          ws.addEventListener('message', (e) =>
            col.onLine(typeof e.data === 'string' ? e.data : Buffer.from(e.data).toString('utf8'), wall()),
          )
        })
      }),
    )
  }
  const open = () => sockets.filter((s) => s && s.readyState === 1).length
  return { sockets, failed, firstError, seconds: (now() - t) / 1000, open }
}

async function closeWebSockets(sockets) {
  const open = sockets.filter((s) => s && s.readyState === 1)
  const closed = Promise.all(
    open.map(
      (s) =>
        new Promise((r) => {
          s.addEventListener('close', r)
          setTimeout(r, 5000)
        }),
    ),
  )
  for (const s of open) s.close(1000, 'bench done')
  await closed
}

async function watchPhases(P) {
  // stats() of the namespace object, through bench/probe-worker.js (a request-scoped stub, as kubeflare's Worker uses;
  // a stub from mf.getDurableObjectNamespace() is held by Miniflare's Node proxy and pins the object in memory).
  const stats = async () => {
    const r = await request({ path: '/__probe/stats?ns=w' })
    if (r.status !== 200) throw new Error(`stats(): ${r.status} ${r.body.slice(0, 300)}`)
    return { ...JSON.parse(r.body), ms: r.t }
  }

  // --- bare baseline: 1000 hibernatable WebSockets straight from a Durable Object ---
  const writeBare = (_col, o) => async (name, sent) => {
    // The stored pod as kubeflare sends it (the same bytes per event), renamed and stamped.
    const object = JSON.parse(probeTemplate())
    object.metadata = {
      ...object.metadata,
      name,
      annotations: { ...object.metadata.annotations, [SENT]: String(sent) },
    }
    const msg = JSON.stringify({ type: 'ADDED', object })
    return request({ method: 'POST', path: `/bare/publish?o=${o}`, body: msg })
  }
  if (want('watch')) {
    // Two bare shapes: the DO's socket passed straight to the client, and kubeflare's shape (the Worker relays).
    for (const [key, path, o] of [
      ['bareWsDirect', '/bare/watch', 'bare-direct'],
      ['bareWsRelay', '/bare/wsrelay', 'bare-relay'],
    ]) {
      const colB = makeCollector(CFG.wsWatchers)
      const ob = await openWebSockets(CFG.wsWatchers, `ws://127.0.0.1:${PORT}${path}?o=${o}`, colB)
      say(
        `${key}: ${ob.open()}/${CFG.wsWatchers} WebSocket watchers open in ${ob.seconds.toFixed(1)} s${ob.failed ? ` (${ob.failed} failed: ${ob.firstError})` : ''}`,
      )
      await sleep(300)
      const one = await pacedWrites(`${o}-single`, 1, 0, writeBare(colB, o), colB)
      await waitFor(() => colB.stats(one.names).missing <= 0, 10_000)
      const single = colB.stats(one.names)
      const c0 = cpuSample()
      const wb = await pacedWrites(o, CFG.writes, CFG.writeIntervalMs, writeBare(colB, o), colB)
      await waitFor(() => colB.stats(wb.names).missing <= 0, 15_000, 100)
      const cpu = perDelivery(cpuDelta(c0, cpuSample()), colB.stats(wb.names).delivered)
      P[key] = {
        ...colB.stats(wb.names),
        cpu,
        open: ob.open(),
        connectSeconds: r2(ob.seconds),
        writeP50: wb.writeP50,
        writeP99: wb.writeP99,
        writeFailures: wb.failures,
        single: { p50: single.p50, p99: single.p99, delivered: single.delivered, writeMs: one.writeP50 },
      }
      say(
        `${key} delivery: single write p50 ${fmtMs(single.p50)} / p99 ${fmtMs(single.p99)} ms (publish ${fmtMs(one.writeP50)} ms); ` +
          `${CFG.writes} writes: p50 ${fmtMs(P[key].p50)} ms, p99 ${fmtMs(P[key].p99)} ms, ${P[key].delivered}/${P[key].expected} delivered, publish p50 ${fmtMs(wb.writeP50)} ms; ${cpuStr(cpu)}`,
      )
      await closeWebSockets(ob.sockets)
    }
  }

  // --- kubeflare: 1000 WebSocket watchers on namespace w ---
  const col = makeCollector(CFG.wsWatchers)
  const before = await stats()
  const o = await openWebSockets(CFG.wsWatchers, `ws://127.0.0.1:${PORT}/api/v1/namespaces/w/pods?watch=true`, col)
  P.wsConnect = {
    watchers: CFG.wsWatchers,
    open: o.open(),
    failed: o.failed,
    seconds: r2(o.seconds),
    firstError: o.firstError,
  }
  say(
    `kubeflare: ${o.open()}/${CFG.wsWatchers} WebSocket watchers open in ${o.seconds.toFixed(1)} s${o.failed ? ` (${o.failed} failed: ${o.firstError})` : ''}`,
  )
  if (o.failed) problem(`${o.failed} of ${CFG.wsWatchers} WebSocket watches failed to open: ${o.firstError}`)

  // --- idle proof ---
  if (want('idle')) {
    await sleep(500) // let the last accepts settle
    const s0 = await stats()
    say(
      `idle window starts: stats() = ${JSON.stringify({ wakes: s0.wakes, watchers: s0.watchers })} (${s0.ms.toFixed(1)} ms); no requests for ${CFG.idleS} s`,
    )
    const tIdle = now()
    const cIdle = cpuSample()
    await sleep(CFG.idleS * 1000)
    const idleCpu = cpuDelta(cIdle, cpuSample())
    const idleS = (now() - tIdle) / 1000
    const s1 = await stats() // the first call after the window: wakes the object if it was evicted
    const s2 = await stats() // immediately again: the object is certainly awake, so this never adds a wake
    const delta = s1.wakes - s0.wakes
    // Our own s1 call accounts for at most one wake (only if the object had been evicted). s1 being slow (constructor:
    // schema + D1 catch-up) while s2 is fast is the evidence it did.
    const ownWake = delta >= 1 ? 1 : 0
    P.idle = {
      idleSeconds: r1(idleS),
      cpu: idleCpu,
      wakesBefore: s0.wakes,
      wakesAfter: s1.wakes,
      wakesAfterSecondCall: s2.wakes,
      delta,
      ownStatsWakes: ownWake,
      wakesDuringIdle: delta - ownWake,
      evicted: delta >= 1,
      statsMsBefore: r2(s0.ms),
      statsMsFirstAfter: r2(s1.ms),
      statsMsSecondAfter: r2(s2.ms),
      watchersBefore: s0.watchers,
      watchersAfter: s1.watchers,
      clientSocketsOpenAfter: o.open(),
      connectWakesBefore: before.wakes,
    }
    say(
      `idle window ends after ${idleS.toFixed(1)} s: wakes ${s0.wakes} -> ${s1.wakes} (first stats() ${s1.ms.toFixed(1)} ms, second ${s2.ms.toFixed(1)} ms, wakes ${s2.wakes}); ` +
        `watchers ${s0.watchers} -> ${s1.watchers}; client sockets open ${o.open()}; idle ${cpuStr(idleCpu)}`,
    )
    if (P.idle.wakesDuringIdle !== 0)
      problem(
        `the namespace object woke ${P.idle.wakesDuringIdle} time(s) during ${idleS.toFixed(0)} s of idle watching`,
      )
    if (!P.idle.evicted)
      P_note(
        `the namespace object was not evicted during the ${idleS.toFixed(0)} s idle window (wakes unchanged), so the idle proof is only "no extra wake"`,
      )

    // One write after the idle period: does every watcher still get it?
    const post = await pacedWrites(
      'post-idle',
      1,
      0,
      (name, sent) =>
        request({
          method: 'POST',
          path: '/api/v1/namespaces/w/pods',
          body: podBody(name, { app: 'watch' }, { [SENT]: String(sent) }, NOSCHED),
        }),
      col,
    )
    await waitFor(() => col.count('post-idle-0') >= o.open(), 10_000)
    const ps = col.stats(post.names)
    P.idle.postIdleDelivered = ps.delivered
    P.idle.postIdleExpected = ps.expected
    P.idle.postIdleP50 = ps.p50
    P.idle.postIdleP99 = ps.p99
    P.idle.postIdleWriteMs = post.writeP50
    say(
      `post-idle event delivered to ${ps.delivered}/${ps.expected} watchers (p50 ${fmtMs(ps.p50)} ms, p99 ${fmtMs(ps.p99)} ms; the create took ${fmtMs(post.writeP50)} ms)` +
        (post.failures ? `; create failed: ${post.firstFailure}` : ''),
    )
    if (ps.missing)
      problem(`after the idle period ${ps.missing} of ${ps.expected} watchers did not receive the next event`)
  }

  // --- 100 paced writes to 1000 WebSocket watchers ---
  if (want('watch')) {
    const c0 = cpuSample()
    const w = await pacedWrites(
      'ws',
      CFG.writes,
      CFG.writeIntervalMs,
      (name, sent) =>
        request({
          method: 'POST',
          path: '/api/v1/namespaces/w/pods',
          body: podBody(name, { app: 'watch' }, { [SENT]: String(sent) }, NOSCHED),
        }),
      col,
    )
    await waitFor(() => col.stats(w.names).missing <= 0, 20_000, 200)
    const cpu = perDelivery(cpuDelta(c0, cpuSample()), col.stats(w.names).delivered)
    P.ws = {
      ...col.stats(w.names),
      cpu,
      writeP50: w.writeP50,
      writeP99: w.writeP99,
      writeFailures: w.failures,
      firstWriteFailure: w.firstFailure,
    }
    say(
      `kubeflare WS delivery: p50 ${fmtMs(P.ws.p50)} ms, p99 ${fmtMs(P.ws.p99)} ms, ${P.ws.delivered}/${P.ws.expected} delivered; creates p50 ${fmtMs(w.writeP50)} ms; ${cpuStr(cpu)}`,
    )
    if (P.ws.missing) problem(`WebSocket watch: ${P.ws.missing} of ${P.ws.expected} events not delivered within 20 s`)
    if (w.failures) problem(`WebSocket watch: ${w.failures} creates failed: ${w.firstFailure}`)
  }
  await closeWebSockets(o.sockets)

  // --- the same with Node's built-in WebSocket (undici): it offers permessage-deflate and workerd accepts, so
  // every event is compressed once per socket; a heavier client, too. Shown so the main row's client is no secret.
  if (want('watch')) {
    const colN = makeCollector(CFG.wsWatchers)
    const on = await openWebSockets(
      CFG.wsWatchers,
      `ws://127.0.0.1:${PORT}/api/v1/namespaces/w/pods?watch=true`,
      colN,
      { client: 'node' },
    )
    say(
      `kubeflare: ${on.open()}/${CFG.wsWatchers} Node WebSocket watchers open in ${on.seconds.toFixed(1)} s${on.failed ? ` (${on.failed} failed: ${on.firstError})` : ''}`,
    )
    await sleep(300)
    const c0 = cpuSample()
    const w = await pacedWrites(
      'wsn',
      CFG.writes,
      CFG.writeIntervalMs,
      (name, sent) =>
        request({
          method: 'POST',
          path: '/api/v1/namespaces/w/pods',
          body: podBody(name, { app: 'watch' }, { [SENT]: String(sent) }, NOSCHED),
        }),
      colN,
    )
    await waitFor(() => colN.stats(w.names).missing <= 0, 20_000, 200)
    const cpu = perDelivery(cpuDelta(c0, cpuSample()), colN.stats(w.names).delivered)
    P.wsNode = { ...colN.stats(w.names), cpu, writeP50: w.writeP50, writeP99: w.writeP99, writeFailures: w.failures }
    say(
      `kubeflare WS delivery, Node WebSocket clients: p50 ${fmtMs(P.wsNode.p50)} ms, p99 ${fmtMs(P.wsNode.p99)} ms, ${P.wsNode.delivered}/${P.wsNode.expected} delivered; creates p50 ${fmtMs(w.writeP50)} ms; ${cpuStr(cpu)}`,
    )
    if (P.wsNode.missing)
      problem(
        `WebSocket watch (Node clients): ${P.wsNode.missing} of ${P.wsNode.expected} events not delivered within 20 s`,
      )
    await closeWebSockets(on.sockets)
  }
  await sleep(1000)
  try {
    const s3 = await stats()
    results.phases.wsAfterClose = { watchers: s3.watchers }
    say(`after closing the client sockets the namespace object counts ${s3.watchers} watchers`)
  } catch (e) {
    problem(`stats() after closing watchers failed: ${e}`)
  }
}

function P_note(msg) {
  results.notes.push(msg)
  say(`note: ${msg}`)
}

let probeJson = null
function probeTemplate() {
  return probeJson
}

/** Opens n streamed-HTTP watchers (fetch, body read as lines). */
async function openStreams(n, path, col, headers = { authorization: `Bearer ${BENCH_TOKENS.admin}` }) {
  const controllers = []
  let failed = 0,
    firstError = ''
  const t = now()
  await Promise.all(
    Array.from({ length: n }, async (_, _idx) => {
      const ac = new AbortController()
      controllers.push(ac)
      try {
        const res = await fetch(`http://127.0.0.1:${PORT}${path}`, { headers, signal: ac.signal })
        if (res.status !== 200) {
          failed++
          firstError ||= `${res.status} ${(await res.text()).slice(0, 200)}`
          return
        }
        const reader = res.body.getReader()
        const dec = new TextDecoder()
        let buf = ''
        ;(async () => {
          try {
            for (;;) {
              const { value, done } = await reader.read()
              if (done) return
              const recv = wall()
              buf += dec.decode(value, { stream: true })
              let nl
              while ((nl = buf.indexOf('\n')) >= 0) {
                col.onLine(buf.slice(0, nl), recv)
                buf = buf.slice(nl + 1)
              }
            }
          } catch {
            // aborted
          }
        })()
      } catch (e) {
        failed++
        firstError ||= String(e)
      }
    }),
  )
  return { controllers, failed, firstError, seconds: (now() - t) / 1000 }
}

async function httpWatchPhases(P) {
  // bare: Worker relays a hibernatable DO WebSocket into a streamed response
  {
    const col = makeCollector(CFG.httpWatchers)
    const s = await openStreams(CFG.httpWatchers, '/bare/stream?o=bare-http', col, {})
    const c0 = cpuSample()
    const w = await pacedWrites(
      'bare-h',
      CFG.writes,
      CFG.writeIntervalMs,
      async (name, sent) => {
        // The stored pod as kubeflare sends it (the same bytes per event), renamed and stamped.
        const object = JSON.parse(probeTemplate())
        object.metadata = {
          ...object.metadata,
          name,
          annotations: { ...object.metadata.annotations, [SENT]: String(sent) },
        }
        const msg = JSON.stringify({ type: 'ADDED', object })
        return request({ method: 'POST', path: '/bare/publish?o=bare-http', body: msg })
      },
      col,
    )
    await waitFor(() => col.stats(w.names).missing <= 0, 15_000, 100)
    const cpu = perDelivery(cpuDelta(c0, cpuSample()), col.stats(w.names).delivered)
    P.bareHttp = {
      ...col.stats(w.names),
      cpu,
      open: CFG.httpWatchers - s.failed,
      failed: s.failed,
      firstError: s.firstError,
      writeP50: w.writeP50,
    }
    say(
      `bare HTTP-stream delivery: p50 ${fmtMs(P.bareHttp.p50)} ms, p99 ${fmtMs(P.bareHttp.p99)} ms, ${P.bareHttp.delivered}/${P.bareHttp.expected}; ${cpuStr(cpu)}`,
    )
    for (const c of s.controllers) c.abort()
  }
  // kubeflare: 100 chunked watchers on namespace hw
  {
    const col = makeCollector(CFG.httpWatchers)
    const s = await openStreams(CFG.httpWatchers, '/api/v1/namespaces/hw/pods?watch=true', col)
    say(
      `kubeflare: ${CFG.httpWatchers - s.failed}/${CFG.httpWatchers} streamed watchers open in ${s.seconds.toFixed(1)} s${s.failed ? ` (${s.failed} failed: ${s.firstError})` : ''}`,
    )
    if (s.failed) problem(`${s.failed} of ${CFG.httpWatchers} HTTP watches failed to open: ${s.firstError}`)
    await sleep(300)
    const c0 = cpuSample()
    const w = await pacedWrites(
      'http',
      CFG.writes,
      CFG.writeIntervalMs,
      (name, sent) =>
        request({
          method: 'POST',
          path: '/api/v1/namespaces/hw/pods',
          body: podBody(name, { app: 'watch' }, { [SENT]: String(sent) }, NOSCHED),
        }),
      col,
    )
    await waitFor(() => col.stats(w.names).missing <= 0, 15_000, 100)
    const cpu = perDelivery(cpuDelta(c0, cpuSample()), col.stats(w.names).delivered)
    P.http = {
      ...col.stats(w.names),
      cpu,
      open: CFG.httpWatchers - s.failed,
      failed: s.failed,
      writeP50: w.writeP50,
      writeP99: w.writeP99,
      writeFailures: w.failures,
    }
    say(
      `kubeflare HTTP-stream delivery: p50 ${fmtMs(P.http.p50)} ms, p99 ${fmtMs(P.http.p99)} ms, ${P.http.delivered}/${P.http.expected} delivered; ${cpuStr(cpu)}`,
    )
    if (P.http.missing) problem(`HTTP watch: ${P.http.missing} of ${P.http.expected} events not delivered within 15 s`)
    for (const c of s.controllers) c.abort()
  }
}

// ---- the table ----------------------------------------------------------------------------------------------------------
function pkgVersion(name) {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return '?'
  }
}

function renderTable() {
  const P = results.phases
  const m = results.machine
  const rows = []
  const ok = (cond) => (cond === null ? '' : cond ? ' ✅' : ' ❌')
  const rate = (r) =>
    r
      ? `${fmtRate(r.rps)} req/s (p50 ${fmtMs(r.p50)} / p99 ${fmtMs(r.p99)} ms)${r.errors ? `, ${r.errors} errors` : ''}` +
        (r.cpu?.workerdMsPerReq !== undefined ? `; workerd ${r.cpu.workerdMsPerReq} ms CPU/req` : '') +
        (r.writes
          ? `; ${r.writes.changesPerCreate} D1 changes/create, ${r.writes.changesPerCommit} changes/D1 commit`
          : '')
      : 'n/a'
  const lat = (r) => (r ? `p50 ${fmtMs(r.p50)} / p99 ${fmtMs(r.p99)} ms` : 'n/a')
  const ratio = (a, b) => (a && b && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : null)
  const fx = (x) => (x === null ? 'n/a' : `${x.toFixed(2)}×`)
  /** Throughput ratio plus the contention-robust one: workerd CPU per request, kubeflare over bare. */
  const fxCpu = (x, a, b) => {
    const c = ratio(a?.cpu?.workerdMsPerReq, b?.cpu?.workerdMsPerReq)
    return fx(x) + (c === null ? '' : ` (CPU/req ${c.toFixed(1)}× bare)`)
  }
  const contended = (r) => (r?.cpu && r.cpu.foreignCores >= 0.25 ? ' ⚠' : '')

  rows.push([
    'Bare no-op Worker, `GET /noop` (32 conc.)',
    '—',
    rate(P.bareNoop) + contended(P.bareNoop),
    'baseline',
    '',
  ])
  rows.push([
    'Bare DO SQLite insert, RPC `insert()` (32 conc.)',
    '—',
    rate(P.bareInsert) + contended(P.bareInsert),
    'baseline',
    '',
  ])
  rows.push([
    'Bare DO get by primary key, RPC `get()` (32 conc.)',
    '—',
    rate(P.bareGet) + contended(P.bareGet),
    'baseline',
    '',
  ])
  for (const [k, label] of [
    ['create1', 'Create pod, 1 namespace (32 conc.)'],
    ['create8', 'Create pod, spread over 8 namespaces (32 conc.)'],
  ]) {
    if (!P[k]) continue
    const x = ratio(P[k]?.rps, P.bareInsert?.rps)
    const pr = P[k].paired
    const paired = pr
      ? `; paired rounds ${pr.median.toFixed(2)}× median (${pr.min.toFixed(2)}–${pr.max.toFixed(2)}×, ${pr.rounds.length} rounds)`
      : ''
    const judged = pr ? pr.median : x
    rows.push([
      label,
      rate(P[k]) + contended(P[k]),
      `bare DO insert ${fmtRate(P.bareInsert?.rps)} req/s`,
      fxCpu(x, P[k], P.bareInsert) + paired,
      `≥ 0.3×${ok(judged === null ? null : judged >= 0.3)}`,
    ])
  }
  if (P.createSched) {
    const x = ratio(P.createSched.rps, P.bareInsert?.rps)
    const w = P.createSched.writes
    rows.push([
      'Create pod with the scheduler and simulated kubelet at work, 8 namespaces (32 conc.; binding, Running status and events follow each create)',
      rate(P.createSched) + (w ? `; ${w.changesPerCreate} D1 changes/create` : '') + contended(P.createSched),
      `bare DO insert ${fmtRate(P.bareInsert?.rps)} req/s`,
      fxCpu(x, P.createSched, P.bareInsert),
      '—',
    ])
  }
  if (P.createDry) {
    const x = ratio(P.createDry.rps, P.bareInsert?.rps)
    rows.push([
      '(decomposition) Create pod with `dryRun=All`: decode + RPC + plan, no D1 commit',
      rate(P.createDry) + contended(P.createDry),
      `bare DO insert ${fmtRate(P.bareInsert?.rps)} req/s`,
      fxCpu(x, P.createDry, P.bareInsert),
      '—',
    ])
  }
  if (P.seed) {
    const x = ratio(P.seed.rps, P.bareInsert?.rps)
    rows.push([
      `Seed ${P.seed.target.toLocaleString('en')} pods into one namespace through the API (32 conc.; pods no scheduler takes, so 1 change each)`,
      `${P.seed.pods.toLocaleString('en')} pods in ${P.seed.seconds} s = ${fmtRate(P.seed.rps)} req/s (p50 ${fmtMs(P.seed.p50)} / p99 ${fmtMs(P.seed.p99)} ms)${P.seed.errors ? `, ${P.seed.errors} errors` : ''}` +
        (P.seed.cpu?.workerdMsPerReq !== undefined ? `; workerd ${P.seed.cpu.workerdMsPerReq} ms CPU/req` : '') +
        (P.seed.writes ? `; ${P.seed.writes.changesPerCommit} changes/D1 commit` : '') +
        contended(P.seed),
      `bare DO insert ${fmtRate(P.bareInsert?.rps)} req/s`,
      fxCpu(x, P.seed, P.bareInsert),
      '—',
    ])
  }
  {
    const x = ratio(P.getPod?.rps, P.bareGet?.rps)
    rows.push([
      `Get pod by name, ${P.seed?.pods?.toLocaleString('en') ?? '?'}-pod namespace (${CFG.conc} conc.)`,
      rate(P.getPod) + contended(P.getPod),
      `bare DO get ${fmtRate(P.bareGet?.rps)} req/s`,
      fxCpu(x, P.getPod, P.bareGet),
      `≥ 0.6×${ok(x === null ? null : x >= 0.6)}`,
    ])
  }
  for (const [k, label] of [
    ['identityGet', 'Get pod with a token + RBAC (a RoleBinding to `edit`) vs anonymous under AlwaysAllow'],
    ['identityCreate', 'Create pod with a token + RBAC vs anonymous under AlwaysAllow'],
  ]) {
    const r = P[k]
    if (!r) continue
    const last = r.rounds[r.rounds.length - 1]
    rows.push([
      `${label} (${CFG.conc} conc., ${r.rounds.length} alternating rounds)`,
      `${fmtRate(last.rbac.rps)} req/s (p50 ${fmtMs(last.rbac.p50)} ms) in the last round`,
      `no identity ${fmtRate(last.open.rps)} req/s (p50 ${fmtMs(last.open.p50)} ms)`,
      `median ${fx(r.throughput)} throughput, p50 ${fx(r.p50)}` + (r.cpu === null ? '' : `, CPU/req ${fx(r.cpu)}`),
      `≥ 0.9× (≤ 10 % cost)${ok(r.throughput === null ? null : r.throughput >= 0.9)}`,
    ])
  }
  for (const [k, b, label, bl, target] of [
    [
      'listNs',
      'bareList',
      `List \`namespaces/big/pods?labelSelector=shard=7\` (${P.seed?.pods?.toLocaleString('en') ?? '?'} pods, 1% match; ${CFG.listN} sequential)`,
      'bare DO indexed select of the same 1% of rows',
      50,
    ],
    [
      'listAll',
      'bareD1List',
      `List \`/api/v1/pods?labelSelector=shard=7\` cluster-wide (${CFG.listN} sequential)`,
      'bare D1 indexed select of the same 1% of rows',
      100,
    ],
  ]) {
    const r = P[k]
    const x = ratio(r?.p50, P[b]?.p50)
    rows.push([
      label,
      r
        ? `${lat(r)}, ${r.items ?? '?'} items, ${Math.round((r.bytes ?? 0) / 1024)} KiB${r.errors ? `, ${r.errors} errors` : ''}`
        : 'n/a',
      `${bl}: ${lat(P[b])}`,
      x === null ? 'n/a' : `${x.toFixed(1)}× p50 latency`,
      `p50 ≤ ${target} ms${ok(r ? r.p50 <= target : null)}`,
    ])
  }
  const us = (r) =>
    r?.cpu?.workerdUsPerDelivery !== undefined ? `; workerd ${r.cpu.workerdUsPerDelivery} µs CPU/event` : ''
  const del = (r) => (r ? `${r.delivered.toLocaleString('en')}/${r.expected.toLocaleString('en')} delivered` : '')
  const rateLabel = `${CFG.writes} creates, 1 per ${CFG.writeIntervalMs} ms`
  if (P.ws) {
    // kubeflare hands a plain WebSocket watcher the Durable Object's own socket, so "direct" is its bare shape.
    const x = ratio(P.ws.p99, P.bareWsDirect?.p99)
    rows.push([
      `Watch delivery, ${CFG.wsWatchers} WebSocket watchers, ${rateLabel}`,
      `${lat(P.ws)}, ${del(P.ws)}; creates p50 ${fmtMs(P.ws.writeP50)} ms${us(P.ws)}${contended(P.ws)}`,
      `DO→WS direct: ${lat(P.bareWsDirect)}${us(P.bareWsDirect)}; DO→Worker relay→WS: ${lat(P.bareWsRelay)}${us(P.bareWsRelay)}`,
      x === null ? 'n/a' : `${x.toFixed(1)}× p99 (vs direct)`,
      `p99 ≤ 100 ms${ok(P.ws.p99 <= 100)}`,
    ])
  }
  if (P.wsNode) {
    rows.push([
      `(the same, watchers on Node's built-in WebSocket: permessage-deflate negotiated, heavier client)`,
      `${lat(P.wsNode)}, ${del(P.wsNode)}; creates p50 ${fmtMs(P.wsNode.writeP50)} ms${us(P.wsNode)}${contended(P.wsNode)}`,
      '—',
      '—',
      '—',
    ])
  }
  if (P.idle?.postIdleDelivered !== undefined) {
    const x = ratio(P.idle.postIdleP99, P.bareWsDirect?.single?.p99)
    rows.push([
      `Watch delivery, ${CFG.wsWatchers} WebSocket watchers, one create (unloaded, after the idle window)`,
      `p50 ${fmtMs(P.idle.postIdleP50)} / p99 ${fmtMs(P.idle.postIdleP99)} ms, ${P.idle.postIdleDelivered}/${P.idle.postIdleExpected} delivered; the create took ${fmtMs(P.idle.postIdleWriteMs)} ms`,
      `one publish, direct: p50 ${fmtMs(P.bareWsDirect?.single?.p50)} / p99 ${fmtMs(P.bareWsDirect?.single?.p99)} ms; relay: p50 ${fmtMs(P.bareWsRelay?.single?.p50)} / p99 ${fmtMs(P.bareWsRelay?.single?.p99)} ms`,
      x === null ? 'n/a' : `${x.toFixed(1)}× p99 (vs direct)`,
      `p99 ≤ 100 ms${ok(P.idle.postIdleP99 <= 100)}`,
    ])
  }
  if (P.http) {
    const x = ratio(P.http.p99, P.bareHttp?.p99)
    rows.push([
      `Watch delivery, ${CFG.httpWatchers} HTTP streaming watchers, ${rateLabel}`,
      `${lat(P.http)}, ${del(P.http)}; creates p50 ${fmtMs(P.http.writeP50)} ms${us(P.http)}${contended(P.http)}`,
      `DO→Worker relay→chunked body: ${lat(P.bareHttp)}${us(P.bareHttp)}`,
      x === null ? 'n/a' : `${x.toFixed(1)}× p99`,
      `p99 ≤ 100 ms${ok(P.http.p99 <= 100)}`,
    ])
  }
  if (P.idle) {
    const i = P.idle
    rows.push([
      `Idle: ${CFG.wsWatchers} WebSocket watchers, ${i.idleSeconds} s without writes`,
      `namespace DO wakes during idle: **${i.wakesDuringIdle}** (wakes ${i.wakesBefore}→${i.wakesAfter}, minus ${i.ownStatsWakes} by the closing stats() call: cold ${fmtMs(i.statsMsFirstAfter)} ms vs warm ${fmtMs(i.statsMsSecondAfter)} ms); ` +
        `workerd CPU ${i.cpu?.workerdCores ?? '?'} cores; watchers ${i.watchersBefore}→${i.watchersAfter}, client sockets open ${i.clientSocketsOpenAfter}; next event reached ${i.postIdleDelivered ?? '?'}/${i.postIdleExpected ?? '?'}`,
      '—',
      '—',
      `0 wakes${ok(i.wakesDuringIdle === 0 && i.evicted)}`,
    ])
  }

  if (P.deploy?.create) {
    const d = P.deploy
    const context = 'KWOK: 20 pods/s (its published default); schedulers are held to 300–500 pods/s'
    rows.push([
      `Deployment of 100 replicas on ${d.nodes} virtual nodes: create → 100 available (simulated kubelet: ${results.kubeletDelays})`,
      `${d.create.seconds} s = ${d.create.podsPerSecond} pods/s`,
      context,
      `${(d.create.podsPerSecond / 20).toFixed(1)}× KWOK`,
      '—',
    ])
    rows.push([
      'The same Deployment rolled to a new image (25% surge / 25% unavailable) until rolled out',
      `${d.rollout.seconds} s = ${d.rollout.podsPerSecond} pods replaced/s`,
      context,
      `${(d.rollout.podsPerSecond / 20).toFixed(1)}× KWOK`,
      '—',
    ])
  }

  rows.push(...crdRows(P))
  rows.push(...agentRows(P, ok))
  rows.push(...entryRows(P, ok), ...scaleRows(P, ok), ...watchScaleRows(P, ok))

  const esc = (c) => String(c).replace(/\|/g, '\\|')
  const lines = [
    '| Benchmark | kubeflare | Bare baseline (same run) | Ratio | Target |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ]
  const totalCpu = results.cpuTotal
  const machine =
    `Machine: nproc ${m.nproc} (${m.cpu}), ${m.memGiB} GiB, Node ${m.node}, miniflare ${pkgVersion('miniflare')} / workerd ${pkgVersion('workerd')}, ${m.date.slice(0, 10)}; ` +
    `one Miniflare on 127.0.0.1 (cf:false, logRequests:false), pure-Node load generator in the same machine; ` +
    `${CFG.warmS} s warm-up + ${CFG.measureS} s measured per throughput row; whole run ${results.runSeconds} s` +
    (totalCpu
      ? `; CPU over the run: node ${totalCpu.nodeCores}, workerd ${totalCpu.workerdCores} (busiest thread ${totalCpu.workerdBusiestThread}), other processes ${totalCpu.foreignCores} cores`
      : '') +
    '.'
  const foot = [
    'Throughput ratios are req/s over the bare baseline; "CPU/req" compares workerd CPU per request, which other load on the machine distorts far less than req/s. ' +
      "Watch latency = from the writer sending the create (its time is in the pod's annotation) to the watcher receiving the event, so it includes the create's own commit; bare rows: from sending `POST /publish`. " +
      '⚠ = other processes on the machine used ≥ 0.25 cores during that row. ' +
      `The create rows' targets are judged on their paired rounds: ${CFG.pairs} rounds of a bare insert (2 s warm-up + 4 s) measured right before the create row (the same), whose median ratio cancels the machine's drift between a row and a baseline measured minutes apart.`,
  ]
  if (results.problems.length) foot.push(`Problems: ${results.problems.map((p) => p.split('\n')[0]).join(' / ')}`)
  return [machine, '', ...lines, '', ...foot].join('\n')
}

// =====================================================================================================================
const cpuStart = cpuSample()
try {
  await main()
} catch (e) {
  problem(`run aborted: ${e?.stack ?? e}`)
}
results.cpuTotal = cpuDelta(cpuStart, cpuSample())
try {
  await mf?.dispose()
} catch {}
results.runSeconds = Math.round((now() - T0) / 1000)
const table = renderTable()
results.table = table
try {
  writeFileSync(join(benchDir, 'results.json'), JSON.stringify(results, null, 2) + '\n')
} catch (e) {
  say(`could not write bench/results.json: ${e}`)
}
process.stdout.write('\n' + table + '\n')
say('wrote bench/results.json')
process.exit(results.problems.some((p) => p.startsWith('run aborted')) ? 1 : 0)
