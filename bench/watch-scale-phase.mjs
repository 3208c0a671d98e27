// The `watch10k` phase of `npm run bench` (bench/run.mjs calls it; opt-in through BENCH_ONLY): 10,000 WebSocket
// watchers on one namespace. First an idle window (no writes): how often the namespace's Durable Object wakes while
// they stay open; then 100 creates, one every 100 ms: when each watcher got each event, from the create's send time.
// The watchers are bench/ws-client.mjs sockets carrying the admin token; a received event is recognised by the pod
// name in its text (no JSON parse per message: 1,000,000 deliveries would make the load generator the bottleneck).
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { LeanWebSocket } from './ws-client.mjs'

const now = () => performance.now()
const r2 = (x) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null)
function pct(sorted, q) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

const NS = 'w10k'
const PREFIX = 'w10k-'

export async function watchScalePhase(
  ctx,
  { watchers = 10_000, writes = 100, intervalMs = 100, idleS = 15, token, cpuSample, cpuDelta },
) {
  const r = await ctx.request({
    method: 'POST',
    path: '/api/v1/namespaces',
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }),
  })
  if (r.status !== 201 && r.status !== 409) return { error: `namespace: ${r.status} ${r.body.slice(0, 200)}` }
  const stats = async () => {
    const s = await ctx.request({ path: `/__probe/stats?ns=${NS}` })
    return { ...JSON.parse(s.body), ms: s.t }
  }

  // name -> receive times (ms, performance clock)
  const received = new Map()
  let otherMessages = 0
  const onMessage = (text, at) => {
    const i = text.indexOf(`"name":"${PREFIX}`)
    if (i < 0 || !text.startsWith('{"type":"ADDED"')) {
      otherMessages++
      return
    }
    const start = i + 8
    const name = text.slice(start, text.indexOf('"', start))
    const times = received.get(name)
    if (times) times.push(at)
    else otherMessages++
  }

  const url = `ws://127.0.0.1:${ctx.port}/api/v1/namespaces/${NS}/pods?watch=true`
  const sockets = []
  let failed = 0,
    firstError = ''
  const t0 = now()
  const batch = 100
  for (let i = 0; i < watchers; i += batch) {
    await Promise.all(
      Array.from(
        { length: Math.min(batch, watchers - i) },
        () =>
          new Promise((resolve) => {
            const ws = new LeanWebSocket(url, { headers: { authorization: `Bearer ${token}` } })
            sockets.push(ws)
            const timer = setTimeout(() => {
              failed++
              firstError ||= 'open timed out after 30 s'
              resolve()
            }, 30_000)
            ws.addEventListener('open', () => {
              clearTimeout(timer)
              resolve()
            })
            ws.addEventListener('error', (e) => {
              clearTimeout(timer)
              if (ws.readyState !== 1) {
                failed++
                firstError ||= String(e?.message ?? 'error')
                resolve()
              }
            })
            ws.addEventListener('message', (e) =>
              onMessage(typeof e.data === 'string' ? e.data : Buffer.from(e.data).toString('utf8'), now()),
            )
          }),
      ),
    )
  }
  const open = () => sockets.filter((s) => s.readyState === 1).length
  const out = { watchers, open: open(), failed, firstError, connectSeconds: r2((now() - t0) / 1000) }
  ctx.say(
    `watch10k: ${out.open}/${watchers} watchers open in ${out.connectSeconds} s${failed ? ` (${failed} failed: ${firstError})` : ''}`,
  )

  // Idle: no writes for idleS seconds; the object should not wake (its sockets hibernate with it).
  await sleep(1000)
  const s0 = await stats()
  const ci = cpuSample()
  await sleep(idleS * 1000)
  const idleCpu = cpuDelta(ci, cpuSample())
  const s1 = await stats()
  const s2 = await stats()
  const delta = s1.wakes - s0.wakes
  out.idle = {
    seconds: idleS,
    wakesBefore: s0.wakes,
    wakesAfter: s1.wakes,
    // the closing stats() call itself wakes an evicted object once (slow first call, fast second)
    wakesDuringIdle: delta - (delta >= 1 ? 1 : 0),
    evicted: delta >= 1,
    statsMsFirstAfter: r2(s1.ms),
    statsMsSecondAfter: r2(s2.ms),
    watchersBefore: s0.watchers,
    watchersAfter: s2.watchers,
    workerdCores: idleCpu?.workerdCores ?? null,
  }
  ctx.say(`watch10k idle: ${JSON.stringify(out.idle)}`)

  // Paced creates.
  const sent = new Map()
  const writeLat = []
  let writeFailures = 0
  const c0 = cpuSample()
  const start = now()
  const pending = []
  for (let i = 0; i < writes; i++) {
    const wait = start + i * intervalMs - now()
    if (wait > 0) await sleep(wait)
    const name = `${PREFIX}${i}`
    received.set(name, [])
    sent.set(name, now())
    pending.push(
      ctx
        .request({
          method: 'POST',
          path: `/api/v1/namespaces/${NS}/pods`,
          body: JSON.stringify({
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name, labels: { app: 'watch' } },
            spec: { schedulerName: 'kubeflare-bench-unscheduled', containers: [{ name: 'c', image: 'nginx:1.25' }] },
          }),
        })
        .then((w) => {
          writeLat.push(w.t)
          if (w.status !== 201) writeFailures++
        }),
    )
  }
  await Promise.all(pending)
  const expected = writes * out.open
  const count = () => [...received.values()].reduce((a, t) => a + t.length, 0)
  const deadline = now() + 60_000
  while (count() < expected && now() < deadline) await sleep(200)
  const cpu = cpuDelta(c0, cpuSample())
  const lat = []
  for (const [name, times] of received) for (const at of times) lat.push(at - sent.get(name))
  const s = Float64Array.from(lat).sort()
  const w = Float64Array.from(writeLat).sort()
  out.delivery = {
    writes,
    intervalMs,
    delivered: lat.length,
    expected,
    p50: r2(pct(s, 0.5)),
    p90: r2(pct(s, 0.9)),
    p99: r2(pct(s, 0.99)),
    max: r2(s[s.length - 1]),
    createP50: r2(pct(w, 0.5)),
    writeFailures,
    otherMessages,
    workerdUsPerDelivery: cpu && lat.length ? r2((cpu.workerdCores * cpu.seconds * 1e6) / lat.length) : null,
    nodeCores: cpu?.nodeCores ?? null,
    workerdCores: cpu?.workerdCores ?? null,
    otherCores: cpu?.foreignCores ?? null,
  }
  ctx.say(`watch10k delivery: ${JSON.stringify(out.delivery)}`)

  const closed = Promise.all(
    sockets
      .filter((x) => x.readyState === 1)
      .map(
        (x) =>
          new Promise((resolve) => {
            x.addEventListener('close', resolve)
            setTimeout(resolve, 5000)
          }),
      ),
  )
  for (const x of sockets) x.close(1000, 'bench done')
  await closed
  return out
}

const ms = (x) =>
  x === null || !Number.isFinite(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)

/** The table rows of the watch10k phase; `ok(cond)` renders a target's verdict. */
export function watchScaleRows(P, ok) {
  const w = P.watch10k
  if (!w || w.error || !w.delivery) return []
  const d = w.delivery
  return [
    [
      `Watch delivery, ${w.watchers.toLocaleString('en')} WebSocket watchers on one namespace (${w.open.toLocaleString('en')} open in ${w.connectSeconds} s), ${d.writes} creates, 1 per ${d.intervalMs} ms`,
      `p50 ${ms(d.p50)} / p99 ${ms(d.p99)} ms, ${d.delivered.toLocaleString('en')}/${d.expected.toLocaleString('en')} delivered; creates p50 ${ms(d.createP50)} ms; workerd ${d.workerdUsPerDelivery} µs CPU/event`,
      '—',
      '—',
      `p99 ≤ 200 ms${ok(d.p99 <= 200 && d.delivered === d.expected)}`,
    ],
    [
      `Idle: ${w.open.toLocaleString('en')} WebSocket watchers, ${w.idle.seconds} s without writes`,
      `namespace DO wakes during idle: **${w.idle.wakesDuringIdle}** (evicted: ${w.idle.evicted}); workerd ${w.idle.workerdCores} cores; watchers ${w.idle.watchersBefore}→${w.idle.watchersAfter}`,
      '—',
      '—',
      `0 wakes${ok(w.idle.wakesDuringIdle === 0)}`,
    ],
  ]
}
