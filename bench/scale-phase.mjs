// The scale phases of `npm run bench` (bench/run.mjs calls them; opt-in through BENCH_ONLY, they take minutes):
//   scale    100,000 pods in one namespace, seeded through the API (pods no scheduler takes, 1 % per label value
//            shard=0..99): the seed rate, then `limit=500` pages walked with continue tokens, GET by name, the 1 %
//            label query, and what it all takes on disk (the namespace's Durable Object, D1).
//   cluster  up to 1,000,000 pods over 100 namespaces within a time budget: cluster-wide (D1) `limit=500` pages, the
//            cluster-wide 1 % label query, whole and in pages of 500; when the budget ends the seeding first, the
//            rows say how far it got and the seed rate projects the full size.
// Everything goes through the bench's Miniflare like the other rows; sizes are read from the SQLite files Miniflare
// keeps for this run (the largest namespace object and the kubeflare D1 database).
import { existsSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

const now = () => performance.now()
const r1 = (x) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null)
const r2 = (x) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null)
function pct(sorted, q) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
const stats = (lat) => {
  const s = Float64Array.from(lat).sort()
  return { n: s.length, p50: r2(pct(s, 0.5)), p99: r2(pct(s, 0.99)), max: r2(s[s.length - 1]) }
}

const podBody = (name, shard) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'scale', shard: String(shard) } },
    spec: { schedulerName: 'kubeflare-bench-unscheduled', containers: [{ name: 'c', image: 'nginx:1.25' }] },
  })
const podName = (i) => `scale-${String(i).padStart(7, '0')}`

/**
 * Creates pods `from`..`to-1` with `conc` writers, spread over `namespaces` by index; stops at `deadline` (ms,
 * performance clock). Answers how many were created, the rate and the create latencies.
 */
async function seed(ctx, { namespaces, from, to, conc, deadline, cpuSample, cpuDelta, label }) {
  let next = from,
    created = 0,
    failed = 0,
    firstError = ''
  const lat = []
  const t0 = now()
  const c0 = cpuSample()
  let lastReport = t0
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next < to && now() < deadline) {
        const i = next++
        const ns = namespaces[i % namespaces.length]
        const r = await ctx.request({
          method: 'POST',
          path: `/api/v1/namespaces/${ns}/pods`,
          body: podBody(podName(i), i % 100),
        })
        if (r.status === 201) {
          created++
          if (lat.length < 200_000) lat.push(r.t)
        } else {
          failed++
          firstError ||= `${r.status} ${r.body.slice(0, 200)}`
        }
        if (now() - lastReport > 15_000) {
          lastReport = now()
          ctx.say(`${label}: ${created.toLocaleString('en')} pods in ${((now() - t0) / 1000).toFixed(0)} s`)
        }
      }
    }),
  )
  const seconds = (now() - t0) / 1000
  const cpu = cpuDelta(c0, cpuSample())
  return {
    created,
    failed,
    firstError,
    seconds: r1(seconds),
    podsPerSecond: r1(created / seconds),
    createLatency: stats(lat),
    workerdMsPerCreate: cpu ? r2((cpu.workerdCores * cpu.seconds * 1000) / Math.max(1, created + failed)) : null,
    otherCores: cpu?.foreignCores ?? null,
  }
}

/** Sequential requests: latency stats, item counts and bytes of the answers. */
async function sample(ctx, n, makePath) {
  const lat = []
  let items = 0,
    bytes = 0,
    errors = 0,
    firstError = ''
  for (let i = 0; i < n; i++) {
    const r = await ctx.request({ path: makePath(i) })
    if (r.status !== 200) {
      errors++
      firstError ||= `${r.status} ${r.body.slice(0, 200)}`
      continue
    }
    lat.push(r.t)
    bytes = r.body.length
    if (r.body.startsWith('{"kind":"PodList"')) items = JSON.parse(r.body).items.length
  }
  return { ...stats(lat), items, bytes, errors, firstError }
}

/** Walks a collection in pages of `limit` with continue tokens (at most `maxPages`): per-page latencies. */
async function walkPages(ctx, base, limit, maxPages) {
  const lat = []
  let token = '',
    pages = 0,
    items = 0,
    errors = 0,
    firstError = ''
  const t0 = now()
  while (pages < maxPages) {
    const sep = base.includes('?') ? '&' : '?'
    const r = await ctx.request({
      path: `${base}${sep}limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
    })
    if (r.status !== 200) {
      errors++
      firstError ||= `${r.status} ${r.body.slice(0, 200)}`
      break
    }
    lat.push(r.t)
    pages++
    const list = JSON.parse(r.body)
    items += list.items.length
    token = list.metadata?.continue ?? ''
    if (!token) break
  }
  return { ...stats(lat), pages, items, seconds: r1((now() - t0) / 1000), complete: !token, errors, firstError }
}

/** The SQLite files of this run's Miniflare (under the OS temp dir, made after `since`), by what they hold. */
function storageSizes(since) {
  const out = { namespaceObjectLargestMiB: null, namespaceObjectsMiB: null, d1MiB: null }
  const sizeOf = (dir, f) => {
    let n = 0
    for (const suffix of ['', '-wal']) {
      const p = join(dir, f + suffix)
      if (existsSync(p)) n += statSync(p).size
    }
    return n
  }
  try {
    for (const d of readdirSync(tmpdir())) {
      if (!d.startsWith('miniflare-')) continue
      const root = join(tmpdir(), d)
      if (statSync(root).ctimeMs < since) continue
      const doDir = join(root, 'do', 'kubeflare-NamespaceObject')
      const d1Dir = join(root, 'd1', 'miniflare-D1DatabaseObject')
      if (!existsSync(doDir) || !existsSync(d1Dir)) continue
      const dos = readdirSync(doDir)
        .filter((f) => f.endsWith('.sqlite'))
        .map((f) => sizeOf(doDir, f))
      const d1s = readdirSync(d1Dir)
        .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
        .map((f) => sizeOf(d1Dir, f))
      const mib = (b) => r1(b / 2 ** 20)
      const largestD1 = Math.max(0, ...d1s)
      if (out.d1MiB !== null && largestD1 / 2 ** 20 <= out.d1MiB) continue
      out.namespaceObjectLargestMiB = mib(Math.max(0, ...dos))
      out.namespaceObjectsMiB = mib(dos.reduce((a, b) => a + b, 0))
      out.d1MiB = mib(largestD1)
      out.dir = root
    }
  } catch (e) {
    out.error = String(e)
  }
  return out
}

async function createNamespaces(ctx, names) {
  for (const ns of names) {
    const r = await ctx.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    })
    if (r.status !== 201 && r.status !== 409) throw new Error(`namespace ${ns}: ${r.status} ${r.body.slice(0, 200)}`)
  }
}

/** 100,000 pods in one namespace: seed rate, pages, GET, the 1 % label query, storage. */
export async function namespaceScalePhase(ctx, { pods = 100_000, budgetS = 900, conc = 32, since }) {
  const ns = 'scale-one'
  await createNamespaces(ctx, [ns])
  const s = await seed(ctx, {
    ...ctx,
    namespaces: [ns],
    from: 0,
    to: pods,
    conc,
    deadline: now() + budgetS * 1000,
    label: 'scale seed',
  })
  ctx.say(`scale: seeded ${JSON.stringify(s)}`)
  const n = s.created
  if (n === 0) return { target: pods, seed: s }
  const base = `/api/v1/namespaces/${ns}/pods`
  const out = { target: pods, pods: n, seed: s }
  out.page = await walkPages(ctx, base, 500, Math.ceil(n / 500) + 1)
  ctx.say(`scale: limit=500 pages ${JSON.stringify(out.page)}`)
  out.get = await sample(ctx, 200, () => `${base}/${podName(Math.floor(Math.random() * n))}`)
  ctx.say(`scale: GET ${JSON.stringify(out.get)}`)
  out.label = await sample(ctx, 20, () => `${base}?labelSelector=shard%3D7`)
  ctx.say(`scale: 1% label query ${JSON.stringify(out.label)}`)
  out.labelPage = await sample(ctx, 20, () => `${base}?labelSelector=shard%3D7&limit=500`)
  out.storage = storageSizes(since)
  ctx.say(`scale: storage ${JSON.stringify(out.storage)}`)
  return out
}

/** Up to 1,000,000 pods over 100 namespaces within the budget: cluster-wide pages and 1 % label queries. */
export async function clusterScalePhase(ctx, { pods = 1_000_000, namespaces = 100, budgetS = 1800, conc = 32, since }) {
  const names = Array.from({ length: namespaces }, (_, i) => `scale-${String(i).padStart(3, '0')}`)
  await createNamespaces(ctx, names)
  const s = await seed(ctx, {
    ...ctx,
    namespaces: names,
    from: 0,
    to: pods,
    conc,
    deadline: now() + budgetS * 1000,
    label: 'cluster seed',
  })
  ctx.say(`cluster: seeded ${JSON.stringify(s)}`)
  const out = { target: pods, namespaces, pods: s.created, seed: s }
  if (s.created === 0) return out
  out.projectedSeedSeconds = r1(pods / s.podsPerSecond)
  out.page = await walkPages(ctx, '/api/v1/pods', 500, 40)
  ctx.say(`cluster: limit=500 pages (first 40) ${JSON.stringify(out.page)}`)
  out.label = await sample(ctx, 10, () => '/api/v1/pods?labelSelector=shard%3D7')
  ctx.say(`cluster: 1% label query ${JSON.stringify(out.label)}`)
  out.labelPage = await walkPages(ctx, '/api/v1/pods?labelSelector=shard%3D7', 500, 20)
  ctx.say(`cluster: 1% label query in pages of 500 ${JSON.stringify(out.labelPage)}`)
  out.get = await sample(ctx, 100, () => {
    const i = Math.floor(Math.random() * s.created)
    return `/api/v1/namespaces/${names[i % namespaces]}/pods/${podName(i)}`
  })
  out.storage = storageSizes(since)
  ctx.say(`cluster: storage ${JSON.stringify(out.storage)}`)
  return out
}

const ms = (x) =>
  x === null || !Number.isFinite(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)

/** The table rows of the scale and cluster phases; `ok(cond)` renders a target's verdict. */
export function scaleRows(P, ok) {
  const rows = []
  const seedText = (s) =>
    `${s.created.toLocaleString('en')} pods in ${s.seconds} s = ${s.podsPerSecond} pods/s (p50 ${ms(s.createLatency.p50)} / p99 ${ms(s.createLatency.p99)} ms)` +
    (s.workerdMsPerCreate !== null ? `; workerd ${s.workerdMsPerCreate} ms CPU/create` : '') +
    (s.failed ? `; ${s.failed} failed: ${s.firstError.slice(0, 80)}` : '')
  const lat = (r) => `p50 ${ms(r.p50)} / p99 ${ms(r.p99)} ms${r.errors ? `, ${r.errors} errors` : ''}`
  const a = P.scale
  if (a?.seed) {
    const n = (a.pods ?? 0).toLocaleString('en')
    rows.push([
      `Seed ${a.target.toLocaleString('en')} pods into one namespace through the API (32 conc.)`,
      seedText(a.seed),
      '—',
      '—',
      '—',
    ])
    if (a.page) {
      rows.push([
        `${n}-pod namespace: \`limit=500\` pages, walked with continue tokens`,
        `${lat(a.page)}; ${a.page.pages} pages, ${a.page.items.toLocaleString('en')} items in ${a.page.seconds} s`,
        '—',
        '—',
        `p50 ≤ 100 ms${ok(a.page.p50 <= 100)}`,
      ])
      rows.push([
        `${n}-pod namespace: GET pod by name (sequential)`,
        lat(a.get),
        '—',
        '—',
        `p50 ≤ 10 ms${ok(a.get.p50 <= 10)}`,
      ])
      rows.push([
        `${n}-pod namespace: 1 % label query (\`labelSelector=shard=7\`, ${a.label.items} items; with \`limit=500\`: ${lat(a.labelPage)})`,
        lat(a.label),
        '—',
        '—',
        `p50 ≤ 50 ms${ok(a.label.p50 <= 50)}`,
      ])
      const st = a.storage
      rows.push([
        `${n}-pod namespace: storage`,
        `namespace Durable Object ${st.namespaceObjectLargestMiB} MiB; D1 ${st.d1MiB} MiB (whole run)`,
        'DO and D1 limits: 10 GB each',
        '—',
        '—',
      ])
    }
  }
  const c = P.cluster
  if (c?.seed) {
    const n = (c.pods ?? 0).toLocaleString('en')
    const partial = c.pods < c.target
    rows.push([
      `Seed ${c.target.toLocaleString('en')} pods over ${c.namespaces} namespaces through the API (32 conc.)`,
      seedText(c.seed) +
        (partial
          ? `; stopped by the time budget (the full ${c.target.toLocaleString('en')} would take about ${Math.round(c.projectedSeedSeconds / 60)} min at this rate)`
          : ''),
      '—',
      '—',
      '—',
    ])
    if (c.page) {
      rows.push([
        `${n} pods cluster-wide: \`/api/v1/pods?limit=500\` pages (first ${c.page.pages})`,
        lat(c.page),
        '—',
        '—',
        `p50 ≤ 100 ms${ok(c.page.p50 <= 100)}`,
      ])
      rows.push([
        `${n} pods cluster-wide: 1 % label query \`/api/v1/pods?labelSelector=shard=7\` (${c.label.items.toLocaleString('en')} items)`,
        `${lat(c.label)}; in pages of 500: ${lat(c.labelPage)}`,
        '—',
        '—',
        `p50 ≤ 100 ms${ok(c.label.p50 <= 100)} (pages${ok(c.labelPage.p50 <= 100)})`,
      ])
      rows.push([
        `${n} pods: storage`,
        `largest namespace object ${c.storage.namespaceObjectLargestMiB} MiB, all ${c.storage.namespaceObjectsMiB} MiB; D1 ${c.storage.d1MiB} MiB`,
        'DO and D1 limits: 10 GB each',
        '—',
        '—',
      ])
    }
  }
  return rows
}
