// The `crd` phase of `npm run bench` (bench/run.mjs calls it): what a custom resource costs next to a Pod. A
// CustomResourceDefinition whose version has a 20-field schema (strings with patterns and lengths, integers with
// bounds and a default, an enum, a bounded list and map, an int-or-string) and 3 CEL rules (a comparison, a string
// function, a list macro) is created and waited for Established; then, in alternating rounds so both meet the same
// machine: creates of Pods (ones no scheduler takes: one write each, as a custom resource's create is) and of custom
// resources (32 conc.), GETs of either by name from 1,000 seeded objects, and sequential lists of 1,000 objects
// (every item of a custom resource is defaulted on read and rendered by the unstructured codec). Each row is
// reported as the custom resource's number over the Pod's, the median of the rounds.
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'

const GROUP = 'bench.kubeflare.dev'
const PLURAL = 'widgets'
const NS_POD = 'crd-pods'
const NS_CR = 'crd-widgets'
const SEED = 1000

const str = (extra = {}) => ({ type: 'string', ...extra })
const int = (extra = {}) => ({ type: 'integer', ...extra })

/** The 20 fields of the spec. */
const specProperties = {
  image: str({ maxLength: 256, pattern: '^[a-z0-9./:-]+$' }),
  command: str({ maxLength: 256 }),
  tier: str({ enum: ['frontend', 'backend', 'batch'] }),
  owner: str({ maxLength: 64 }),
  team: str({ maxLength: 64 }),
  region: str({ maxLength: 32 }),
  zone: str({ maxLength: 32 }),
  url: str({ maxLength: 512, format: 'uri' }),
  schedule: str({ maxLength: 64 }),
  minReplicas: int({ minimum: 0, maximum: 1000 }),
  maxReplicas: int({ minimum: 1, maximum: 1000 }),
  replicas: int({ minimum: 0, default: 1 }),
  priority: int({ minimum: -100, maximum: 100, default: 0 }),
  timeoutSeconds: int({ minimum: 1, maximum: 86400 }),
  ratio: { type: 'number', minimum: 0, maximum: 1 },
  paused: { type: 'boolean', default: false },
  port: { 'x-kubernetes-int-or-string': true },
  ports: { type: 'array', maxItems: 16, items: int({ minimum: 1, maximum: 65535 }) },
  tags: { type: 'object', maxProperties: 16, additionalProperties: str({ maxLength: 63 }) },
  suspendAt: str({ maxLength: 64 }),
}

export const crdManifest = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: PLURAL, singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['image', 'minReplicas', 'maxReplicas'],
                properties: specProperties,
                'x-kubernetes-validations': [
                  { rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' },
                  { rule: "!self.image.endsWith(':latest')", message: 'pin the image to a version' },
                  { rule: 'self.ports.all(p, p != 22)', message: 'port 22 may not be exposed' },
                ],
              },
              status: { type: 'object', properties: { replicas: int() } },
            },
          },
        },
        subresources: { status: {} },
      },
    ],
  },
}

const widgetBody = (name, labels) =>
  JSON.stringify({
    apiVersion: `${GROUP}/v1`,
    kind: 'Widget',
    metadata: { name, labels },
    spec: {
      image: 'registry.example.com/widget:1.4.2',
      command: '/bin/widget --serve',
      tier: 'backend',
      owner: 'platform',
      team: 'widgets',
      region: 'eu-west',
      zone: 'eu-west-1a',
      url: 'https://widgets.example.com/api',
      schedule: '*/5 * * * *',
      minReplicas: 1,
      maxReplicas: 5,
      timeoutSeconds: 30,
      ratio: 0.5,
      port: 'http',
      ports: [80, 443, 8080],
      tags: { env: 'bench', app: 'widget' },
      suspendAt: '2030-01-01T00:00:00Z',
    },
  })

const podBody = (name, labels) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { schedulerName: 'kubeflare-bench-unscheduled', containers: [{ name: 'c', image: 'nginx:1.25' }] },
  })

const KINDS = {
  pod: { path: (ns) => `/api/v1/namespaces/${ns}/pods`, ns: NS_POD, body: podBody },
  cr: { path: (ns) => `/apis/${GROUP}/v1/namespaces/${ns}/${PLURAL}`, ns: NS_CR, body: widgetBody },
}

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b)
  return s.length ? s[Math.floor(s.length / 2)] : null
}
const r2 = (x) => Math.round(x * 100) / 100

/** Seeds `n` objects of a kind, 32 at a time; answers how many were created. */
async function seed(request, kind, n) {
  let next = 0
  let made = 0
  const loop = async () => {
    while (next < n) {
      const i = next++
      const k = KINDS[kind]
      const r = await request({
        method: 'POST',
        path: k.path(k.ns),
        body: k.body(`seed-${String(i).padStart(4, '0')}`, { app: 'bench', shard: String(i % 100) }),
      })
      if (r.status === 201) made++
    }
  }
  await Promise.all(Array.from({ length: 32 }, loop))
  return made
}

/**
 * Runs the phase. `ctx`: bench/run.mjs's request, load (closed-loop rows), sequential (sequential rows), say and
 * rounds. Answers {rounds, create, get, list} (each {pod, cr, ratio} medians) or {error}.
 */
export async function crdPhase({ request, load, sequential, say, rounds = 3 }) {
  const c = await request({
    method: 'POST',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: JSON.stringify(crdManifest),
  })
  if (c.status !== 201) return { error: `creating the CRD: ${c.status} ${c.body.slice(0, 300)}` }
  const t0 = performance.now()
  for (;;) {
    const r = await request({ path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${PLURAL}.${GROUP}` })
    const conds = r.status === 200 ? (JSON.parse(r.body).status?.conditions ?? []) : []
    if (conds.some((x) => x.type === 'Established' && x.status === 'True')) break
    if (performance.now() - t0 > 30_000) return { error: 'the CRD was not Established within 30 s' }
    await sleep(100)
  }
  const establishedS = r2((performance.now() - t0) / 1000)
  for (const ns of [NS_POD, NS_CR]) {
    const r = await request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    })
    if (r.status !== 201) return { error: `namespace ${ns}: ${r.status} ${r.body.slice(0, 200)}` }
  }
  // A CEL rule must refuse what it should: a bench of rules that never ran would measure nothing.
  const refused = await request({
    method: 'POST',
    path: KINDS.cr.path(NS_CR),
    body: widgetBody('refused', {}).replace('"minReplicas":1', '"minReplicas":9'),
  })
  if (refused.status !== 422 || !refused.body.includes('minReplicas must not exceed maxReplicas'))
    return { error: `a widget breaking a CEL rule was not refused: ${refused.status} ${refused.body.slice(0, 200)}` }
  const seeded = { pod: await seed(request, 'pod', SEED), cr: await seed(request, 'cr', SEED) }
  say(`crd: Established in ${establishedS} s; seeded ${seeded.pod} pods and ${seeded.cr} widgets`)
  if (seeded.pod !== SEED || seeded.cr !== SEED) return { error: `seeding: ${JSON.stringify(seeded)}` }

  const short = { warmS: 2, measureS: 4 }
  const byRound = []
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['pod', 'cr'] : ['cr', 'pod']
    const row = { create: {}, get: {}, list: {} }
    for (const kind of order) {
      const k = KINDS[kind]
      row.create[kind] = await load(
        `crd: create ${kind} (round ${r + 1})`,
        (li, i) => ({ method: 'POST', path: k.path(k.ns), body: k.body(`r${r}-${li}-${i}`, { app: 'load' }) }),
        short,
      )
    }
    for (const kind of order) {
      const k = KINDS[kind]
      row.get[kind] = await load(
        `crd: get ${kind} (round ${r + 1})`,
        () => ({ path: `${k.path(k.ns)}/seed-${String(Math.floor(Math.random() * SEED)).padStart(4, '0')}` }),
        short,
      )
    }
    for (const kind of order) {
      const k = KINDS[kind]
      row.list[kind] = await sequential(
        `crd: list ${SEED} ${kind} objects (round ${r + 1})`,
        10,
        () => ({ path: `${k.path(k.ns)}?labelSelector=app%3Dbench` }),
        (res) => ({ items: JSON.parse(res.body).items.length }),
      )
    }
    byRound.push(row)
  }
  const summary = (verb, key, better) => {
    const pod = median(byRound.map((x) => x[verb].pod[key]))
    const cr = median(byRound.map((x) => x[verb].cr[key]))
    const ratios = byRound.map((x) => x[verb].cr[key] / x[verb].pod[key])
    const cpu = median(
      byRound.map(
        (x) => (x[verb].cr.cpu?.workerdMsPerReq ?? Number.NaN) / (x[verb].pod.cpu?.workerdMsPerReq ?? Number.NaN),
      ),
    )
    return {
      pod,
      cr,
      ratio: median(ratios),
      min: Math.min(...ratios),
      max: Math.max(...ratios),
      better,
      cpu,
      podCpuMs: median(byRound.map((x) => x[verb].pod.cpu?.workerdMsPerReq ?? Number.NaN)),
      crCpuMs: median(byRound.map((x) => x[verb].cr.cpu?.workerdMsPerReq ?? Number.NaN)),
      errors: byRound.reduce((n, x) => n + (x[verb].pod.errors ?? 0) + (x[verb].cr.errors ?? 0), 0),
      items: byRound[0][verb].cr.items,
    }
  }
  const out = {
    establishedS,
    rounds,
    create: summary('create', 'rps', 'higher'),
    get: summary('get', 'rps', 'higher'),
    list: summary('list', 'p50', 'lower'),
  }
  say(`crd: ${JSON.stringify({ create: out.create, get: out.get, list: out.list })}`)
  return out
}

/** The table rows of the phase: custom resource over Pod. */
export function crdRows(P) {
  const c = P.crd
  if (!c) return []
  if (c.error) return [['Custom resource vs Pod (20-field schema, 3 CEL rules)', `failed: ${c.error}`, '—', '—', '—']]
  const fx = (x) => (x === null || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(2)}×`)
  const row = (label, s, unit) => [
    `${label} (median of ${c.rounds} alternating rounds)`,
    unit === 'rps'
      ? `${Math.round(s.cr)} req/s; workerd ${s.crCpuMs} ms CPU/req${s.errors ? `, ${s.errors} errors` : ''}`
      : `p50 ${s.cr?.toFixed(1)} ms, ${s.items ?? '?'} items${s.errors ? `, ${s.errors} errors` : ''}`,
    unit === 'rps'
      ? `Pod: ${Math.round(s.pod)} req/s; workerd ${s.podCpuMs} ms CPU/req`
      : `Pod: p50 ${s.pod?.toFixed(1)} ms`,
    `${fx(s.ratio)} ${unit === 'rps' ? 'throughput' : 'p50 latency'} (${fx(s.min)}–${fx(s.max)})` +
      (unit === 'rps' ? `, CPU/req ${fx(s.cpu)}` : ''),
    '—',
  ]
  return [
    row(
      'Create a custom resource (20-field schema, 3 CEL rules) vs a Pod no scheduler takes (32 conc.)',
      c.create,
      'rps',
    ),
    row('Get a custom resource by name vs a Pod, 1,000 of each (32 conc.)', c.get, 'rps'),
    row('List 1,000 custom resources vs 1,000 Pods (10 sequential)', c.list, 'p50'),
  ]
}
