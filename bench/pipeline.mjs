#!/usr/bin/env node
// `node_modules/.bin/node bench/pipeline.mjs` (Node 22): create → Running end to end under Miniflare (no wrangler
// dev), with the timeline of one batch. N pods (BENCH_PIPE_PODS, 1000) are created by BENCH_CONC (32) writers over 8
// namespaces on 100 virtual nodes; one watch per namespace follows every pod through Pending → bound → Running and
// counts the events. Reported: pods/s from the first create sent to the last pod seen Running, per-pod latencies of
// each stage, workerd CPU per pod (steadier than rates on a shared machine), D1 changes and commits per pod, and a
// timeline in BENCH_PIPE_BUCKET_MS (100) buckets of how many pods were created, bound and Running. A warm-up batch
// (BENCH_PIPE_WARM, 200) runs first. The bundle goes to its own directory (BENCH_PIPE_DIST, bench/dist-pipeline), so
// this can run beside `npm run bench` and two bundles can be compared (BENCH_NO_BUNDLE=1 reuses one).
// BENCH_KUBELET_DELAY_MS overrides the simulated kubelet's start delay (wrangler.toml's 500). The server's side of the
// timeline comes from the commit times D1 keeps, so a watch that lags behind the commits shows as such.
// BENCH_PIPE_WATCH=ws follows on WebSocket watches instead of chunked HTTP ones (what kubectl and client-go use).
// BENCH_PIPE_PROFILE=<file> writes a V8 CPU profile of the measured batch (workerd's isolate, through Miniflare's
// inspector) and prints the functions with the most self and total time.
import http from 'node:http'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { LeanWebSocket } from './ws-client.mjs'
import { migrationStatements, parseWranglerToml } from './miniflare-config.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = process.env.BENCH_PIPE_DIST ?? join(root, 'bench', 'dist-pipeline')
const env = (k, d) => (process.env[k] ? Number(process.env[k]) : d)
const PODS = env('BENCH_PIPE_PODS', 1000)
const WARM = env('BENCH_PIPE_WARM', 200)
const CONC = env('BENCH_CONC', 32)
const BUCKET = env('BENCH_PIPE_BUCKET_MS', 100)
/** A file to write a V8 CPU profile of the measured batch to (workerd's isolate, through Miniflare's inspector). */
const PROFILE = process.env.BENCH_PIPE_PROFILE
/** How the watches are made: `http` (chunked, what kubectl and client-go use) or `ws` (BENCH_PIPE_WATCH). */
const WATCH = process.env.BENCH_PIPE_WATCH ?? 'http'
const START_DELAY = Number(process.env.BENCH_KUBELET_DELAY_MS || 500)
const NAMESPACES = Array.from({ length: 8 }, (_, i) => `pipe-${i}`)
const TOKEN = 'pipeline-admin-token'
const now = () => performance.now()
const say = (m) => process.stderr.write(`[pipeline ${(now() / 1000).toFixed(1).padStart(5)}s] ${m}\n`)
const r2 = (x) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null)
const pct = (s, q) => (s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] : Number.NaN)

function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true' },
    })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('exit', (code) => resolve({ code, out }))
  })
}

function workerdJiffies() {
  let total = 0
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8')
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
      if (Number(f[1]) === process.pid) total += Number(f[11]) + Number(f[12])
    } catch {}
  }
  return total
}
function machineBusy() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  const total = cpu.reduce((a, b) => a + b, 0)
  return { total, busy: total - cpu[3] - (cpu[4] ?? 0) }
}

let PORT = 0
const agent = new http.Agent({ keepAlive: true, maxSockets: CONC + 16 })
function request(method, path, body, stream = false) {
  return new Promise((resolve) => {
    const headers = { authorization: `Bearer ${TOKEN}` }
    const data = body === undefined ? undefined : JSON.stringify(body)
    if (data) headers['content-type'] = 'application/json'
    const req = http.request({ host: '127.0.0.1', port: PORT, method, path, headers, agent }, (res) => {
      if (stream) return resolve({ status: res.statusCode, res })
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', (e) => resolve({ status: 0, body: String(e) }))
    req.end(data)
  })
}

const pod = (name) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'pipe' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
})

/** One watch per namespace on pods and one on events; every pod's stage times by name. */
async function follow(prefix) {
  const seen = new Map() // name -> {added, bound, running}
  const events = new Map() // reason -> count
  const order = [] // problems with the observed sequence
  const streams = []
  for (const ns of NAMESPACES) {
    for (const resource of ['pods', 'events']) {
      const list = await request('GET', `/api/v1/namespaces/${ns}/${resource}?limit=1`)
      const rv = JSON.parse(list.body).metadata.resourceVersion
      const path = `/api/v1/namespaces/${ns}/${resource}?watch=1&resourceVersion=${rv}`
      const onLine = (line, at) => {
        if (!line.includes(prefix)) return
        const ev = JSON.parse(line)
        const o = ev.object
        if (resource === 'events') {
          if (o.involvedObject?.name?.startsWith(prefix)) events.set(o.reason, (events.get(o.reason) ?? 0) + 1)
          return
        }
        const name = o.metadata.name
        const s = seen.get(name) ?? {}
        seen.set(name, s)
        if (ev.type === 'ADDED') s.added ??= at
        if (o.spec?.nodeName && s.bound === undefined) {
          s.bound = at
          if (o.status?.phase === 'Running') order.push(`${name}: Running without a bound state seen first`)
        }
        if (o.status?.phase === 'Running' && s.running === undefined) s.running = at
      }
      if (WATCH === 'ws') {
        // A WebSocket watch: the namespace object's own socket, handed through (no Worker code per event).
        const ws = new LeanWebSocket(`ws://127.0.0.1:${PORT}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })
        await new Promise((r, j) => {
          ws.addEventListener('open', r)
          ws.addEventListener('error', j)
        })
        ws.addEventListener('message', (e) => onLine(String(e.data), now()))
        streams.push({ destroy: () => ws.close() })
        continue
      }
      const w = await request('GET', path, undefined, true)
      let buf = ''
      w.res.setEncoding('utf8')
      w.res.on('data', (chunk) => {
        const at = now()
        buf += chunk
        let nl
        while ((nl = buf.indexOf('\n')) >= 0) {
          onLine(buf.slice(0, nl), at)
          buf = buf.slice(nl + 1)
        }
      })
      w.res.on('error', () => {})
      streams.push(w.res)
    }
  }
  return { seen, events, order, close: () => streams.forEach((s) => s.destroy()) }
}

async function batch(label, n, d1) {
  const prefix = `${label}-${Date.now().toString(36)}`
  const f = await follow(prefix)
  const sent = new Map()
  const answered = new Map()
  let next = 0
  let failed = 0
  const rv0 = (await d1.prepare('SELECT COALESCE(MAX(rv),0) AS rv FROM changes').first()).rv
  const j0 = workerdJiffies()
  const m0 = machineBusy()
  const c0 = process.cpuUsage()
  const t0 = now()
  const wall0 = Date.now()
  await Promise.all(
    Array.from({ length: CONC }, async () => {
      while (next < n) {
        const i = next++
        const name = `${prefix}-${i}`
        sent.set(name, now())
        const r = await request('POST', `/api/v1/namespaces/${NAMESPACES[i % 8]}/pods`, pod(name))
        answered.set(name, now())
        if (r.status !== 201) {
          failed++
          if (failed < 3) say(`create failed: ${r.status} ${r.body.slice(0, 200)}`)
          sent.delete(name)
        }
      }
    }),
  )
  const createdS = (now() - t0) / 1000
  const deadline = now() + 120_000
  const done = () => [...sent.keys()].every((k) => f.seen.get(k)?.running !== undefined)
  while (!done() && now() < deadline) await sleep(20)
  const tEnd = Math.max(...[...sent.keys()].map((k) => f.seen.get(k)?.running ?? 0))
  const j1 = workerdJiffies()
  const m1 = machineBusy()
  const c1 = process.cpuUsage(c0)
  // The events of the last pods may trail their Running.
  await sleep(1500)
  f.close()
  const rv1 = (await d1.prepare('SELECT COALESCE(MAX(rv),0) AS rv FROM changes').first()).rv
  const c = await d1
    .prepare(
      "SELECT COUNT(*) AS changes, COUNT(DISTINCT ns || ':' || ts) AS commits FROM changes WHERE rv > ? AND rv <= ?",
    )
    .bind(rv0, rv1)
    .first()
  const names = [...sent.keys()]
  // The server's side of the same pipeline, from the commit times D1 keeps (ts: when each commit began).
  const { results: commits } = await d1
    .prepare(
      `SELECT name, type, ts, json_extract(object, '$.spec.nodeName') AS node, json_extract(prev, '$.spec.nodeName') AS prevNode,
              json_extract(object, '$.status.phase') AS phase, json_extract(prev, '$.status.phase') AS prevPhase,
              json_extract(object, '$.status.conditions') AS conditions
         FROM changes WHERE rv > ? AND rv <= ? AND resource = 'pods'`,
    )
    .bind(rv0, rv1)
    .all()
  const srv = new Map()
  for (const row of commits) {
    const x = srv.get(row.name) ?? {}
    srv.set(row.name, x)
    const at = t0 + (row.ts - wall0)
    if (row.type === 'ADDED') x.added = at
    if (row.node && !row.prevNode && row.type === 'MODIFIED') {
      x.bound = at
      // When the simulated kubelet may start it: PodScheduled's time (whole seconds) plus the start delay.
      const scheduled = JSON.parse(row.conditions ?? '[]').find((c) => c.type === 'PodScheduled')
      if (scheduled) x.due = t0 + (Date.parse(scheduled.lastTransitionTime) + START_DELAY - wall0)
    }
    if (row.phase === 'Running' && row.prevPhase !== 'Running') x.running = at
  }
  const sv = (k) => srv.get(k) ?? {}
  const stage = (from, to) =>
    names
      .map((k) => to(k) - from(k))
      .filter(Number.isFinite)
      .sort((a, b) => a - b)
  const s = (k) => f.seen.get(k) ?? {}
  const lat = (xs) => ({ p50: r2(pct(xs, 0.5)), p99: r2(pct(xs, 0.99)), max: r2(xs[xs.length - 1]) })
  const running = names.filter((k) => s(k).running !== undefined).length
  const seconds = (tEnd - t0) / 1000
  // Timeline: per bucket since t0, how many pods were answered, bound and Running.
  const buckets = Math.ceil((tEnd - t0) / BUCKET) + 1
  const tl = Array.from({ length: buckets }, () => [0, 0, 0, 0, 0])
  for (const k of names) {
    const put = (t, i) => t !== undefined && tl[Math.floor((t - t0) / BUCKET)] && tl[Math.floor((t - t0) / BUCKET)][i]++
    put(answered.get(k), 0)
    put(s(k).bound, 1)
    put(s(k).running, 2)
    put(sv(k).bound, 3)
    put(sv(k).running, 4)
  }
  const out = {
    pods: n,
    running,
    failed,
    createSeconds: r2(createdS),
    seconds: r2(seconds),
    podsPerSecond: r2(running / seconds),
    createAnswer: lat(
      stage(
        (k) => sent.get(k),
        (k) => answered.get(k),
      ),
    ),
    createToBound: lat(
      stage(
        (k) => sent.get(k),
        (k) => s(k).bound,
      ),
    ),
    boundToRunning: lat(
      stage(
        (k) => s(k).bound,
        (k) => s(k).running,
      ),
    ),
    createToRunning: lat(
      stage(
        (k) => sent.get(k),
        (k) => s(k).running,
      ),
    ),
    server: {
      createToBound: lat(
        stage(
          (k) => sv(k).added,
          (k) => sv(k).bound,
        ),
      ),
      boundToRunning: lat(
        stage(
          (k) => sv(k).bound,
          (k) => sv(k).running,
        ),
      ),
      dueToRunning: lat(
        stage(
          (k) => sv(k).due,
          (k) => sv(k).running,
        ),
      ),
      runningCommittedToSeen: lat(
        stage(
          (k) => sv(k).running,
          (k) => s(k).running,
        ),
      ),
      lastRunningCommittedS: r2((Math.max(...names.map((k) => sv(k).running ?? 0)) - t0) / 1000),
      podsPerSecond: r2(running / ((Math.max(...names.map((k) => sv(k).running ?? 0)) - t0) / 1000)),
    },
    harnessCpuMsPerPod: r2((c1.user + c1.system) / 1000 / n),
    workerdCpuMsPerPod: r2(((j1 - j0) * 10) / n),
    workerdCores: r2((j1 - j0) / 100 / seconds),
    machineBusyCores: r2(((m1.busy - m0.busy) / (m1.total - m0.total)) * 2),
    changesPerPod: r2(c.changes / n),
    changesPerCommit: r2(c.changes / Math.max(1, c.commits)),
    events: Object.fromEntries(f.events),
    orderProblems: f.order.slice(0, 5),
    timeline: tl.map((b, i) => `${((i * BUCKET) / 1000).toFixed(1)}s ${b.join('/')}`).join('  '),
  }
  return out
}

/** Starts the V8 profiler of the kubeflare isolate; stop(file) writes the .cpuprofile and a summary by function. */
async function startProfile(mf) {
  const url = await mf.getInspectorURL()
  const http = new URL(url)
  http.protocol = 'http:'
  const list = await (await fetch(new URL('/json', http))).json()
  const target = list.find((t) => t.title.includes('kubeflare')) ?? list[0]
  const ws = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((r, j) => {
    ws.onopen = r
    ws.onerror = j
  })
  let id = 0
  const waiting = new Map()
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data)
    if (m.id && waiting.has(m.id)) waiting.get(m.id)(m.result)
  }
  const call = (method, params = {}) =>
    new Promise((r) => {
      waiting.set(++id, r)
      ws.send(JSON.stringify({ id, method, params }))
    })
  await call('Profiler.enable')
  await call('Profiler.setSamplingInterval', { interval: 200 })
  await call('Profiler.start')
  return {
    async stop(file) {
      const { profile } = await call('Profiler.stop')
      ws.close()
      const { writeFileSync } = await import('node:fs')
      writeFileSync(file, JSON.stringify(profile))
      summarize(profile)
    },
  }
}

/** Self time and total time per function (top 40 each) of a V8 CPU profile, on stderr. */
function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map()
  const total = new Map()
  const key = (n) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`
  const dt = profile.timeDeltas
  for (let i = 0; i < profile.samples.length; i++) {
    const d = dt[i + 1] ?? 0
    let n = byId.get(profile.samples[i])
    self.set(key(n), (self.get(key(n)) ?? 0) + d)
    const seen = new Set()
    while (n) {
      const k = key(n)
      if (!seen.has(k)) total.set(k, (total.get(k) ?? 0) + d)
      seen.add(k)
      n = byId.get(parent.get(n.id))
    }
  }
  const all = [...self.values()].reduce((a, b) => a + b, 0)
  const top = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 45)
      .map(([k, v]) => `${((v / all) * 100).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n')
  say(`profile: ${(all / 1000).toFixed(0)} ms sampled\nself:\n${top(self)}\ntotal:\n${top(total)}`)
}

async function main() {
  if (process.env.BENCH_NO_BUNDLE !== '1' || !existsSync(join(outdir, 'index.js'))) {
    const b = await run(process.execPath, [
      join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
      'deploy',
      '--dry-run',
      '--outdir',
      outdir,
    ])
    if (b.code !== 0) throw new Error(`bundling failed: ${b.out}`)
  }
  const { Miniflare, convertV4MiniflareOptions } = await import('miniflare')
  const toml = parseWranglerToml(readFileSync(join(root, 'wrangler.toml'), 'utf8'))
  const delay = process.env.BENCH_KUBELET_DELAY_MS
  const vars = {
    ...toml.vars,
    VIRTUAL_NODES: '100',
    KUBEFLARE_TOKENS: `${TOKEN},pipeline-admin,uid-pipeline-admin,system:masters`,
    KUBEFLARE_RATE_LIMIT: 'off',
    ...(delay ? { KUBELET_START_DELAY_MS: delay, KUBELET_STOP_DELAY_MS: delay } : {}),
  }
  const sqlite = { useSQLite: true }
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      cf: false,
      logRequests: false,
      // The audit log (console.log) is kept out of the measurement, as npm run bench keeps it.
      handleStructuredLogs: () => {},
      ...(PROFILE ? { inspectorPort: 0 } : {}),
      workers: [
        {
          name: 'kubeflare',
          modules: true,
          scriptPath: join(outdir, 'index.js'),
          compatibilityDate: toml.compatibilityDate,
          compatibilityFlags: toml.compatibilityFlags,
          bindings: vars,
          durableObjects: {
            NAMESPACES: { className: 'NamespaceObject', ...sqlite },
            CLUSTER: { className: 'ClusterObject', ...sqlite },
            WATCH_HUB: { className: 'WatchHub', ...sqlite },
            NODE_TUNNELS: { className: 'NodeTunnel', ...sqlite },
          },
          d1Databases: { DB: 'kubeflare-pipeline' },
        },
      ],
    }),
  )
  try {
    PORT = Number(new URL(await mf.ready).port)
    const d1 = await mf.getD1Database('DB', 'kubeflare')
    for (const f of readdirSync(join(root, 'migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort())
      for (const st of migrationStatements(readFileSync(join(root, 'migrations', f), 'utf8'))) await d1.exec(st)
    for (const ns of NAMESPACES) {
      const r = await request('POST', '/api/v1/namespaces', { metadata: { name: ns } })
      if (r.status !== 201) throw new Error(`namespace ${ns}: ${r.status} ${r.body}`)
    }
    say(`Miniflare on ${PORT}; kubelet start delay ${vars.KUBELET_START_DELAY_MS} ms`)
    if (WARM > 0) {
      const w = await batch('warm', WARM, d1)
      say(`warm-up: ${w.running}/${w.pods} Running, ${w.podsPerSecond} pods/s`)
    }
    const profiler = PROFILE ? await startProfile(mf) : null
    const m = await batch('pipe', PODS, d1)
    if (profiler) await profiler.stop(PROFILE)
    const { timeline, ...rest } = m
    console.log(JSON.stringify(rest, null, 1))
    if (process.env.BENCH_PIPE_TIMELINE !== '0')
      console.log(`timeline (answered / bound, Running seen / bound, Running committed; per ${BUCKET} ms): ${timeline}`)
  } finally {
    await mf.dispose()
  }
}

await main()
