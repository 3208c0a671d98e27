// The `startup` and `entry` phases of `npm run bench` (bench/run.mjs calls them): kubeflare as a new user meets it,
// through `npm start` (wrangler dev, HTTPS, the admin token of the kubeconfig it writes), not through Miniflare.
//   startup  `npm start` → first answer to GET /version, and → the first `kubectl get pods` finished, from an empty
//            state directory and again with the state that first start left (the usual second start).
//   entry    on that server (VIRTUAL_NODES 100, so every pod fits): alternating rounds of the Worker-only request
//            (GET /version), GET pod, and creates of ordinary pods over 8 namespaces that the scheduler binds, the
//            simulated kubelet starts and events follow; then create → Running end to end, confirmed by watches.
// CPU per request is the CPU of the whole server process tree (npm, wrangler's Node proxy, workerd) over the
// requests answered in the round: other processes on the machine disturb it far less than requests per second.
import { spawn, execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'

const now = () => performance.now()
const CLK_TCK = 100
const NAMESPACES = Array.from({ length: 8 }, (_, i) => `entry-${i}`)

/** kubectl 1.33 beside the one on PATH (the machine keeps 1.27…1.33 there), else whatever `kubectl` is. */
function kubectlPath() {
  const dirs = (process.env.PATH ?? '').split(':')
  for (const d of dirs) if (existsSync(join(d, 'kubectl.1.33'))) return join(d, 'kubectl.1.33')
  return 'kubectl'
}

function pct(sorted, q) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
const r2 = (x) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null)
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  return s.length ? s[Math.floor(s.length / 2)] : null
}

/**
 * CPU jiffies of a process and all its descendants (/proc), in total and by program: the server's npm, wrangler's
 * Node process (its proxy and inspector) and workerd.
 */
function treeJiffies(rootPid) {
  const kids = new Map()
  const info = new Map()
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8')
      const comm = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'))
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
      const ppid = Number(f[1])
      info.set(Number(d), { comm, jiffies: Number(f[11]) + Number(f[12]) })
      if (!kids.has(ppid)) kids.set(ppid, [])
      kids.get(ppid).push(Number(d))
    } catch {}
  }
  let total = 0
  const byProgram = {}
  const stack = [rootPid]
  while (stack.length) {
    const p = stack.pop()
    const i = info.get(p)
    if (i) {
      total += i.jiffies
      byProgram[i.comm] = (byProgram[i.comm] ?? 0) + i.jiffies
    }
    for (const k of kids.get(p) ?? []) stack.push(k)
  }
  return { total, byProgram }
}

/** One `npm start` on a state directory; answers once the process is spawned. */
function launch(root, stateDir, port, extra = [], extraEnv = {}) {
  const child = spawn('npm', ['start', '--silent', '--', '--port', String(port), '--persist-to', stateDir, ...extra], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...extraEnv },
  })
  // npm start's own output, as a user sees it (the audit log included); only the tail is kept.
  let log = ''
  const keep = (d) => {
    log = (log + d).slice(-65536)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  return { child, log: () => log, t0: now() }
}

async function stop(server) {
  if (server.child.exitCode !== null) return
  const exited = new Promise((r) => server.child.once('exit', r))
  try {
    process.kill(-server.child.pid, 'SIGTERM')
  } catch {}
  await Promise.race([exited, sleep(10_000)])
  if (server.child.exitCode === null) {
    try {
      process.kill(-server.child.pid, 'SIGKILL')
    } catch {}
    await Promise.race([exited, sleep(5_000)])
  }
}

/** The client of a started server: its CA and admin token from the state directory npm start wrote. */
function client(stateDir, port, conc) {
  const dir = join(stateDir, 'kubeflare')
  const ca = readFileSync(join(dir, 'ca.crt'))
  const token = /token: (\S+)/.exec(readFileSync(join(dir, 'kubeconfig.yaml'), 'utf8'))[1]
  const agent = new https.Agent({ keepAlive: true, maxSockets: conc, ca })
  const request = (method, path, body, { stream } = {}) =>
    new Promise((resolve) => {
      const t = now()
      const headers = { authorization: `Bearer ${token}` }
      if (body !== undefined) headers['content-type'] = 'application/json'
      const req = https.request({ host: '127.0.0.1', port, method, path, agent, headers, ca }, (res) => {
        if (stream) return resolve({ status: res.statusCode, res, t: now() - t })
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), t: now() - t }))
        res.on('error', (e) => resolve({ status: 0, body: String(e), t: now() - t }))
      })
      req.on('error', (e) => resolve({ status: 0, body: String(e), t: now() - t }))
      req.setTimeout(60_000, () => req.destroy(new Error('timeout')))
      req.end(body === undefined ? undefined : JSON.stringify(body))
    })
  return { request, agent, kubeconfig: join(dir, 'kubeconfig.yaml'), ca }
}

/** Polls until the server answers GET /version; answers ms since launch (null: it never did). */
async function firstAnswer(server, stateDir, port, timeoutMs = 120_000) {
  const credentials = join(stateDir, 'kubeflare', 'kubeconfig.yaml')
  let c = null
  while (now() - server.t0 < timeoutMs) {
    if (server.child.exitCode !== null) return null
    if (!c && existsSync(credentials)) {
      try {
        c = client(stateDir, port, 1)
      } catch {}
    }
    if (c) {
      const r = await c.request('GET', '/version')
      if (r.status === 200) {
        c.agent.destroy()
        return now() - server.t0
      }
    }
    await sleep(50)
  }
  c?.agent.destroy()
  return null
}

function runKubectl(kubeconfig, args) {
  return new Promise((resolve) => {
    const t = now()
    execFile(kubectlPath(), ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ ok: !err, ms: now() - t, out: `${stdout}${stderr}`.trim().slice(0, 200) }),
    )
  })
}

/** `npm start` from empty state and again with the state it left: first answer and first `kubectl get pods`. */
export async function startupPhase({ root, say, port = 18611 }) {
  const stateDir = mkdtempSync(join(tmpdir(), 'kubeflare-bench-start-'))
  const out = {}
  try {
    for (const which of ['empty', 'existing']) {
      const server = launch(root, stateDir, port)
      const answerMs = await firstAnswer(server, stateDir, port)
      if (answerMs === null) {
        out[which] = { error: `no answer: ${server.log().slice(-400)}` }
        await stop(server)
        continue
      }
      const k = await runKubectl(join(stateDir, 'kubeflare', 'kubeconfig.yaml'), ['get', 'pods'])
      out[which] = {
        firstAnswerS: r2(answerMs / 1000),
        kubectlS: r2(k.ms / 1000),
        firstKubectlS: r2((answerMs + k.ms) / 1000),
        kubectlOk: k.ok,
        kubectlOut: k.out,
      }
      say(`startup (${which} state): ${JSON.stringify(out[which])}`)
      await stop(server)
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true })
  }
  return out
}

const pod = (name, spec = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'entry' } },
  spec: { ...spec, containers: [{ name: 'c', image: 'nginx:1.25' }] },
})
/** Pods no scheduler takes: one change each, the decomposition row. */
const NOSCHED = { schedulerName: 'kubeflare-bench-unscheduled' }

/** Closed-loop load for warm + measure seconds; CPU of the server's process tree over the measured part. */
async function load(c, serverPid, make, { conc, warmS, measureS }) {
  const warmEnd = now() + warmS * 1000
  const end = warmEnd + measureS * 1000
  const lat = []
  let ok = 0,
    bad = 0,
    firstError = '',
    seq = 0,
    j0 = null
  const timer = setTimeout(() => (j0 = treeJiffies(serverPid)), warmS * 1000)
  await Promise.all(
    Array.from({ length: conc }, async (_, li) => {
      while (now() < end) {
        const [method, path, body] = make(li, seq++)
        const r = await c.request(method, path, body)
        const done = now()
        const good = r.status >= 200 && r.status < 300
        if (!good) firstError ||= `${r.status} ${String(r.body).slice(0, 200)}`
        if (done >= warmEnd && done <= end) {
          lat.push(r.t)
          if (good) ok++
          else bad++
        }
      }
    }),
  )
  clearTimeout(timer)
  const j1 = treeJiffies(serverPid)
  const cpuS = j0 === null ? Number.NaN : (j1.total - j0.total) / CLK_TCK
  const n = Math.max(1, ok + bad)
  const byProgram =
    j0 === null
      ? {}
      : Object.fromEntries(
          Object.entries(j1.byProgram).map(([k, v]) => [k, r2(((v - (j0.byProgram[k] ?? 0)) * 1000) / CLK_TCK / n)]),
        )
  lat.sort((a, b) => a - b)
  return {
    rps: ok / measureS,
    p50: pct(lat, 0.5),
    p99: pct(lat, 0.99),
    ok,
    errors: bad,
    firstError,
    cpuMsPerReq: r2((cpuS * 1000) / n),
    cpuMsPerReqByProgram: byProgram,
    lat,
  }
}

/**
 * Creates `n` pods over the namespaces as fast as `conc` writers go and follows them on one watch per namespace:
 * pods/s from the first create sent to the last pod seen Running.
 */
async function endToEnd(c, { n, conc, say }) {
  const sent = new Map()
  const running = new Map()
  const watches = []
  const prefix = `e2e-${Date.now().toString(36)}`
  for (const ns of NAMESPACES) {
    const list = await c.request('GET', `/api/v1/namespaces/${ns}/pods?limit=1`)
    const rv = JSON.parse(list.body).metadata.resourceVersion
    const w = await c.request('GET', `/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=${rv}`, undefined, {
      stream: true,
    })
    if (w.status !== 200) throw new Error(`watch ${ns}: ${w.status}`)
    let buf = ''
    w.res.setEncoding('utf8')
    w.res.on('data', (chunk) => {
      const at = now()
      buf += chunk
      let nl
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl)
        buf = buf.slice(nl + 1)
        if (!line.includes(prefix) || !line.includes('"phase":"Running"')) continue
        const ev = JSON.parse(line)
        const name = ev.object?.metadata?.name
        if (ev.object?.status?.phase === 'Running' && sent.has(name) && !running.has(name)) running.set(name, at)
      }
    })
    w.res.on('error', () => {})
    watches.push(w.res)
  }
  let next = 0,
    failed = 0,
    firstError = ''
  const t0 = now()
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next < n) {
        const i = next++
        const name = `${prefix}-${i}`
        const ns = NAMESPACES[i % NAMESPACES.length]
        sent.set(name, now())
        const r = await c.request('POST', `/api/v1/namespaces/${ns}/pods`, pod(name))
        if (r.status !== 201) {
          failed++
          firstError ||= `${r.status} ${String(r.body).slice(0, 200)}`
          sent.delete(name)
        }
      }
    }),
  )
  const createdS = (now() - t0) / 1000
  const deadline = now() + 60_000
  while (running.size < sent.size && now() < deadline) await sleep(50)
  const lastRunning = Math.max(...running.values())
  for (const w of watches) w.destroy()
  const per = [...running].map(([name, at]) => at - sent.get(name)).sort((a, b) => a - b)
  const out = {
    pods: n,
    created: sent.size,
    running: running.size,
    failed,
    firstError,
    createSeconds: r2(createdS),
    seconds: r2((lastRunning - t0) / 1000),
    podsPerSecond: r2(running.size / ((lastRunning - t0) / 1000)),
    createToRunningP50Ms: r2(pct(per, 0.5)),
    createToRunningP99Ms: r2(pct(per, 0.99)),
  }
  say(`create → Running end to end: ${JSON.stringify(out)}`)
  return out
}

/**
 * The create rows through `npm start`: `rounds` alternating rounds of GET /version, GET pod and scheduled creates
 * (which one goes first rotates), then the end-to-end row. VIRTUAL_NODES 100 (11,000 pods of room) so that every
 * created pod is scheduled and started, as the issue's row asks ("enough virtual nodes to hold them").
 */
export async function entryPhase({
  root,
  say,
  conc = 32,
  rounds = 3,
  warmS = 2,
  measureS = 5,
  e2ePods = 2000,
  extraArgs = [],
  extraEnv = {},
}) {
  const port = 18612
  const stateDir = mkdtempSync(join(tmpdir(), 'kubeflare-bench-entry-'))
  const server = launch(root, stateDir, port, ['--nodes', '100', ...extraArgs], extraEnv)
  try {
    const answerMs = await firstAnswer(server, stateDir, port)
    if (answerMs === null) return { error: `npm start did not answer: ${server.log().slice(-400)}` }
    const c = client(stateDir, port, conc)
    for (const ns of NAMESPACES) {
      const r = await c.request('POST', '/api/v1/namespaces', { metadata: { name: ns } })
      if (r.status !== 201) return { error: `namespace ${ns}: ${r.status} ${r.body.slice(0, 200)}` }
    }
    const target = await c.request('POST', `/api/v1/namespaces/${NAMESPACES[0]}/pods`, pod('target'))
    if (target.status !== 201) return { error: `pod: ${target.status} ${target.body.slice(0, 200)}` }
    const pid = server.child.pid
    const kinds = {
      version: () => ['GET', '/version'],
      getPod: () => ['GET', `/api/v1/namespaces/${NAMESPACES[0]}/pods/target`],
      create: (li, i) => ['POST', `/api/v1/namespaces/${NAMESPACES[li % 8]}/pods`, pod(`load-${li}-${i}`)],
      createBare: (li, i) => ['POST', `/api/v1/namespaces/${NAMESPACES[li % 8]}/pods`, pod(`bare-${li}-${i}`, NOSCHED)],
    }
    const order = Object.keys(kinds)
    const results = Object.fromEntries(order.map((k) => [k, []]))
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < order.length; k++) {
        const kind = order[(k + r) % order.length]
        let seq = 0
        const make = (li) => kinds[kind](li, `${r}-${seq++}`)
        const m = await load(c, pid, make, { conc, warmS, measureS })
        results[kind].push(m)
        say(
          `entry round ${r + 1} ${kind}: ${Math.round(m.rps)} req/s, p50 ${m.p50.toFixed(1)} / p99 ${m.p99.toFixed(1)} ms, ` +
            `server CPU ${m.cpuMsPerReq} ms/req ${JSON.stringify(m.cpuMsPerReqByProgram)}${m.errors ? `, ${m.errors} errors: ${m.firstError}` : ''}`,
        )
      }
    }
    const ratioOf = (kind, key) =>
      results[kind].map((m, i) =>
        key === 'rps' ? m.rps / results.version[i].rps : results.version[i].cpuMsPerReq / m.cpuMsPerReq,
      )
    const summary = (kind) => {
      const all = results[kind].flatMap((m) => m.lat).sort((a, b) => a - b)
      return {
        rps: r2(median(results[kind].map((m) => m.rps))),
        p50: r2(pct(all, 0.5)),
        p99: r2(pct(all, 0.99)),
        cpuMsPerReq: r2(median(results[kind].map((m) => m.cpuMsPerReq))),
        errors: results[kind].reduce((a, m) => a + m.errors, 0),
        firstError: results[kind].find((m) => m.firstError)?.firstError ?? '',
      }
    }
    const out = {
      rounds,
      conc,
      version: summary('version'),
      getPod: {
        ...summary('getPod'),
        ratio: r2(median(ratioOf('getPod', 'rps'))),
        cpuRatio: r2(median(ratioOf('getPod', 'cpu'))),
      },
      create: {
        ...summary('create'),
        ratio: r2(median(ratioOf('create', 'rps'))),
        cpuRatio: r2(median(ratioOf('create', 'cpu'))),
      },
      createBare: {
        ...summary('createBare'),
        ratio: r2(median(ratioOf('createBare', 'rps'))),
        cpuRatio: r2(median(ratioOf('createBare', 'cpu'))),
      },
      roundRatios: Object.fromEntries(order.slice(1).map((k) => [k, ratioOf(k, 'rps').map(r2)])),
    }
    say(`entry: ${JSON.stringify(out)}`)
    await sleep(2000) // the last round's pods finish starting before the end-to-end row begins
    out.e2e = await endToEnd(c, { n: e2ePods, conc, say })
    await sleep(2000)
    out.d1 = await d1Changes(stateDir)
    c.agent.destroy()
    return out
  } finally {
    await stop(server)
    rmSync(stateDir, { recursive: true, force: true })
  }
}

/** D1 changes per created pod over the phase, by resource and type (the local database file, read-only). */
async function d1Changes(stateDir) {
  const emitWarning = process.emitWarning
  process.emitWarning = () => {}
  let db
  try {
    const dir = join(stateDir, 'v3', 'd1', 'miniflare-D1DatabaseObject')
    const file = readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
    const { DatabaseSync } = await import('node:sqlite')
    db = new DatabaseSync(join(dir, file), { readOnly: true })
    // The scheduled pods of the create rounds and the end-to-end row, and their events (named <pod>.<hex>).
    const mine = "ns LIKE 'entry-%' AND (name LIKE 'load-%' OR name LIKE 'e2e-%')"
    const rows = db
      .prepare(`SELECT resource, type, COUNT(*) AS n FROM changes WHERE ${mine} GROUP BY resource, type`)
      .all()
    const byType = Object.fromEntries(rows.map((r) => [`${r.resource} ${r.type}`, r.n]))
    const total = rows.reduce((a, r) => a + r.n, 0)
    const commits = db.prepare(`SELECT COUNT(DISTINCT ns || ':' || ts) AS n FROM changes WHERE ${mine}`).get().n
    const pods = byType['pods ADDED'] ?? 0
    return { byType, changesPerPod: r2(total / Math.max(1, pods)), changesPerCommit: r2(total / Math.max(1, commits)) }
  } catch (e) {
    return { error: String(e) }
  } finally {
    process.emitWarning = emitWarning
    db?.close()
  }
}

const ms = (x) =>
  x === null || !Number.isFinite(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)
const x2 = (x) => (x === null || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(2)}×`)

/** The table rows of the startup and entry phases; `ok(cond)` renders a target's verdict. */
export function entryRows(P, ok) {
  const rows = []
  const s = P.startup
  if (s) {
    for (const [which, limit] of [
      ['existing', 3],
      ['empty', 6],
    ]) {
      const r = s[which]
      if (!r) continue
      rows.push([
        `\`npm start\` → first answer (GET /version) and → first \`kubectl get pods\` done, ${which} state`,
        r.error ? `failed: ${r.error.slice(0, 100)}` : `${r.firstAnswerS} s; kubectl done at ${r.firstKubectlS} s`,
        'envtest: 2–5 s',
        '—',
        `≤ ${limit} s${ok(r.error ? false : r.firstKubectlS <= limit)}`,
      ])
    }
  }
  const e = P.entry
  if (e && !e.error) {
    const rate = (r) =>
      `${Math.round(r.rps)} req/s (p50 ${ms(r.p50)} / p99 ${ms(r.p99)} ms); server ${r.cpuMsPerReq} ms CPU/req` +
      (r.errors ? `, ${r.errors} errors` : '')
    const base = `GET /version ${Math.round(e.version.rps)} req/s; server ${e.version.cpuMsPerReq} ms CPU/req`
    const judged = (r) => `${x2(r.ratio)} (CPU/req ${x2(r.cpuRatio)}; median of ${e.rounds} alternating rounds)`
    rows.push([
      `Worker-only request through \`npm start\` (wrangler dev, HTTPS, token): GET /version (${e.conc} conc.)`,
      '—',
      rate(e.version),
      'baseline',
      '',
    ])
    rows.push([
      'Create an ordinary pod through `npm start`, 8 namespaces, 100 virtual nodes (scheduler binds, simulated kubelet starts it, events follow)',
      rate(e.create) +
        (e.d1 && !e.d1.error ? `; ${e.d1.changesPerPod} D1 changes/pod, ${e.d1.changesPerCommit}/commit` : ''),
      base,
      judged(e.create),
      `≥ 0.3×${ok(e.create.ratio >= 0.3)}; p99 ≤ 200 ms${ok(e.create.p99 <= 200)}`,
    ])
    rows.push([
      '(decomposition) Create a pod no scheduler takes, through `npm start`, 8 namespaces',
      rate(e.createBare),
      base,
      judged(e.createBare),
      '—',
    ])
    rows.push([
      'GET pod through `npm start`',
      rate(e.getPod),
      base,
      judged(e.getPod),
      `≥ 0.8×${ok(e.getPod.ratio >= 0.8)}`,
    ])
    const t = e.e2e
    if (t)
      rows.push([
        `The same pods from create to Running, end to end (${t.pods.toLocaleString('en')} pods, ${e.conc} writers, confirmed by a watch per namespace; simulated kubelet start delay included)`,
        `${t.running}/${t.pods} Running in ${t.seconds} s = ${t.podsPerSecond} pods/s; create → Running p50 ${ms(t.createToRunningP50Ms)} / p99 ${ms(t.createToRunningP99Ms)} ms`,
        'KWOK: 20 pods/s; schedulers are held to 300–500 pods/s',
        '—',
        `≥ 500 pods/s${ok(t.podsPerSecond >= 500)}`,
      ])
  }
  return rows
}
