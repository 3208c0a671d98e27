// Watches against a real `wrangler dev` server, through the clients that use them: kubectl `get -w`, the
// @kubernetes/client-node informer, an informer-style raw watch loop across server-side timeouts, a WebSocket watch
// and a cluster-wide watch. The invariant behind all of them (docs/architecture.md §5.7): a watch from rv N delivers
// every change after N exactly once, in rv order, whatever the number of reconnects.
//
// Every pod here has `spec.schedulerName: none`: no scheduler binds it and no simulated kubelet touches it, so the
// only changes are the test's own and the expected event stream is exactly the list of acknowledged writes.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node'
import {
  KUBECONFIG,
  KUBECTL_DIR,
  KUBECTL_VERSIONS,
  KUBEFLARE_URL,
  TOKEN,
  api,
  podManifest,
  uniqueNs,
} from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const staticPod = (name, labels) => podManifest(name, { labels, spec: { schedulerName: 'none' } })
const podsPath = (ns) => `/api/v1/namespaces/${ns}/pods`
const rvOf = (o) => Number(o?.metadata?.resourceVersion)

/** Namespaces this file created; deleted at the end (best effort: run.mjs throws the server state away anyway). */
const created = []
after(async () => {
  await Promise.all(created.map((ns) => api('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {})))
})

async function makeNs(prefix) {
  const ns = uniqueNs(prefix)
  const r = await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
  assert.equal(r.status, 201, `create namespace ${ns}: ${r.text}`)
  created.push(ns)
  return ns
}

/** Polls `check` (sync or async, truthy = done) until it holds or `ms` pass; answers its last value. */
async function waitFor(check, ms, every = 50) {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v || Date.now() > deadline) return v
    await sleep(every)
  }
}

/** mulberry32: a deterministic PRNG, so a failing mix of writes can be replayed from its seed. */
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// ---- writes ----------------------------------------------------------------------------------------------------

async function createPod(ns, name, labels) {
  const r = await api('POST', podsPath(ns), staticPod(name, labels))
  assert.equal(r.status, 201, `create ${ns}/${name}: ${r.status} ${r.text}`)
  return r.body
}

async function labelPod(ns, name, labels) {
  const r = await api(
    'PATCH',
    `${podsPath(ns)}/${name}`,
    { metadata: { labels } },
    { 'content-type': 'application/merge-patch+json' },
  )
  assert.equal(r.status, 200, `label ${ns}/${name}: ${r.status} ${r.text}`)
  return r.body
}

async function deletePod(ns, name) {
  const r = await api('DELETE', `${podsPath(ns)}/${name}`)
  assert.equal(r.status, 200, `delete ${ns}/${name}: ${r.status} ${r.text}`)
  // An unscheduled pod goes at once: the answer is the final object, carrying the deletion's resourceVersion.
  assert.equal(r.body?.kind, 'Pod', `delete ${ns}/${name} answered ${r.text}`)
  return r.body
}

/**
 * `total` writes by `concurrency` concurrent clients over `namespaces`: creates, label updates (merge patch) and
 * deletes of `schedulerName: none` pods. Each client owns its pods, so its writes to one pod are in order; `initial`
 * pods ({ns, name, uid}) are shared out among the clients. Answers every acknowledged write as
 * {ns, name, uid, type: ADDED|MODIFIED|DELETED, rv}.
 */
async function workload({ namespaces, total, concurrency, seed, initial = [], pace = 0 }) {
  const rand = rng(seed)
  const acked = []
  let left = total
  let gen = 0
  const clients = Array.from({ length: concurrency }, (_, c) =>
    initial.filter((_, i) => i % concurrency === c).map((p) => ({ ...p })),
  )
  await Promise.all(
    clients.map(async (live, c) => {
      let next = 0
      while (left > 0) {
        left--
        const r = rand()
        if (live.length === 0 || (live.length < 4 && r < 0.5) || r < 0.3) {
          const ns = namespaces[Math.floor(rand() * namespaces.length)]
          const name = `c${c}-${seed}-${next++}`
          const o = await createPod(ns, name, { client: String(c) })
          live.push({ ns, name, uid: o.metadata.uid })
          acked.push({ ns, name, uid: o.metadata.uid, type: 'ADDED', rv: rvOf(o) })
        } else if (r < 0.7) {
          const p = live[Math.floor(rand() * live.length)]
          const o = await labelPod(p.ns, p.name, { gen: String(++gen) })
          assert.equal(o.metadata.uid, p.uid)
          acked.push({ ...p, type: 'MODIFIED', rv: rvOf(o) })
        } else {
          const p = live.splice(Math.floor(rand() * live.length), 1)[0]
          const o = await deletePod(p.ns, p.name)
          assert.equal(o.metadata.uid, p.uid)
          acked.push({ ...p, type: 'DELETED', rv: rvOf(o) })
        }
        if (pace) await sleep(pace)
      }
    }),
  )
  for (const a of acked)
    assert.ok(Number.isInteger(a.rv) && a.rv > 0, `write without a resourceVersion: ${JSON.stringify(a)}`)
  assert.equal(new Set(acked.map((a) => a.rv)).size, acked.length, 'two acknowledged writes share a resourceVersion')
  return acked.sort((a, b) => a.rv - b.rv)
}

/** name -> resourceVersion of a list's items (one namespace). */
const byName = (items) => new Map(items.map((o) => [o.metadata.name, o.metadata.resourceVersion]))
/** "ns/name" -> resourceVersion. */
const byKey = (items) =>
  new Map(items.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o.metadata.resourceVersion]))
const sortedEntries = (m) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

async function listPods(path) {
  const r = await api('GET', path)
  assert.equal(r.status, 200, `GET ${path}: ${r.text}`)
  return r.body
}

/** Asserts that, per uid, the resourceVersions of `events` ({uid, rv}) strictly increase. */
function assertPerObjectIncreasing(events, what) {
  const last = new Map()
  for (const e of events) {
    const prev = last.get(e.uid)
    assert.ok(
      prev === undefined || e.rv > prev,
      `${what}: ${e.name} (${e.uid}) went from rv ${prev} to ${e.rv} (${e.type})`,
    )
    last.set(e.uid, e.rv)
  }
}

/** Asserts that the change events seen equal the acknowledged writes: exactly once each, nothing else. */
function assertExactlyOnce(seen, acked, what) {
  const counts = new Map()
  for (const e of seen) counts.set(e.rv, (counts.get(e.rv) ?? 0) + 1)
  const dups = [...counts].filter(([, n]) => n > 1).map(([rv]) => rv)
  assert.deepEqual(dups, [], `${what}: events delivered more than once (rvs ${dups.slice(0, 20).join(', ')})`)
  const want = new Map(acked.map((a) => [a.rv, a]))
  const missing = acked.filter((a) => !counts.has(a.rv))
  assert.deepEqual(
    missing.map((a) => `${a.type} ${a.ns}/${a.name}@${a.rv}`).slice(0, 20),
    [],
    `${what}: ${missing.length} of ${acked.length} acknowledged writes never arrived`,
  )
  const extra = seen.filter((e) => !want.has(e.rv))
  assert.deepEqual(
    extra.map((e) => `${e.type} ${e.name}@${e.rv}`).slice(0, 20),
    [],
    `${what}: events no write of this test made`,
  )
  for (const e of seen) {
    const a = want.get(e.rv)
    assert.deepEqual(
      [e.type, e.name, e.uid],
      [a.type, a.name, a.uid],
      `${what}: event at rv ${e.rv} does not match the write`,
    )
  }
}

// ---- a raw chunked watch ---------------------------------------------------------------------------------------

/**
 * One chunked watch request. Calls onEvent for each event line as it arrives and resolves when the server ends the
 * stream ({ended: 'server'}) or `signal` aborts it ({ended: 'client'}). A trailing partial line is reported: a line
 * cut in half by the end of the stream is a lost event.
 */
async function watchOnce(url, onEvent, signal, headers = {}) {
  const res = await fetch(url, {
    headers: { accept: 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
    signal,
  })
  if (res.status !== 200) return { status: res.status, body: await res.text(), ended: 'server' }
  const reader = res.body.getReader()
  const dec = new TextDecoder()
  let buf = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      buf += dec.decode(value, { stream: true })
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i).trim()
        buf = buf.slice(i + 1)
        if (line) onEvent(JSON.parse(line))
      }
    }
  } catch (e) {
    if (signal?.aborted) return { status: 200, ended: 'client' }
    throw e
  }
  return { status: 200, ended: 'server', partial: buf.trim() || undefined }
}

/**
 * The informer's watch loop without the informer: watch from `rv`, and whenever the server ends the stream, watch
 * again from the last resourceVersion seen (events and bookmarks), as client-go's reflector does. Stops when
 * stop() is called. Every non-bookmark event goes to `events` as {type, name, ns, uid, rv}.
 */
function watchLoop(path, rv, { timeoutSeconds, bookmarks = true, extra = '' }) {
  const state = { events: [], bookmarks: 0, serverEnds: 0, connects: 0, errors: [], lastRv: String(rv), stopped: false }
  const ctrl = new AbortController()
  const onEvent = (ev) => {
    if (ev.type === 'ERROR') {
      state.errors.push(ev.object)
      return
    }
    const r = ev.object?.metadata?.resourceVersion
    if (ev.type === 'BOOKMARK') {
      state.bookmarks++
      assert.ok(Number(r) >= Number(state.lastRv), `BOOKMARK went back from ${state.lastRv} to ${r}`)
    } else {
      const m = ev.object.metadata
      state.events.push({ type: ev.type, name: m.name, ns: m.namespace, uid: m.uid, rv: Number(r) })
    }
    if (r) state.lastRv = r
  }
  const done = (async () => {
    while (!state.stopped) {
      const q = new URLSearchParams({
        watch: 'true',
        resourceVersion: state.lastRv,
        timeoutSeconds: String(timeoutSeconds),
      })
      if (bookmarks) q.set('allowWatchBookmarks', 'true')
      state.connects++
      let r
      try {
        r = await watchOnce(`${KUBEFLARE_URL}${path}?${q}${extra}`, onEvent, ctrl.signal)
      } catch (e) {
        if (state.stopped) break
        state.errors.push({ message: `watch request failed: ${e.message}` })
        break
      }
      if (r.ended === 'client') break
      if (r.status !== 200) {
        state.errors.push({ message: `watch answered ${r.status}: ${r.body}` })
        break
      }
      if (r.partial) state.errors.push({ message: `stream ended inside an event: ${r.partial.slice(0, 200)}` })
      if (state.errors.length) break
      state.serverEnds++
    }
  })()
  return {
    state,
    async stop() {
      state.stopped = true
      ctrl.abort()
      await done
    },
  }
}

// ---- (a) kubectl get -w ----------------------------------------------------------------------------------------

/** Starts `kubectl get pods -w` and collects its stdout lines; kill() ends it (SIGKILL) and waits for the exit. */
function kubectlWatch(version, ns) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'kubeflare-kubectl-cache-'))
  const argv = [
    '--kubeconfig',
    KUBECONFIG,
    '--cache-dir',
    cacheDir,
    '-n',
    ns,
    'get',
    'pods',
    '-w',
    '--output-watch-events',
    '--show-labels',
  ]
  const child = spawn(join(KUBECTL_DIR, `kubectl.${version}`), argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG },
  })
  const out = { lines: [], stderr: '', exit: null }
  let buf = ''
  child.stdout.setEncoding('utf8').on('data', (d) => {
    buf += d
    const parts = buf.split('\n')
    buf = parts.pop()
    out.lines.push(...parts.filter((l) => l.trim()))
  })
  child.stderr.setEncoding('utf8').on('data', (d) => (out.stderr += d))
  const exited = new Promise((r) => child.on('close', (code, signal) => r((out.exit = { code, signal }))))
  return {
    out,
    /** Rows as {event, name, labels} (columns: EVENT NAME READY STATUS RESTARTS AGE LABELS). */
    rows: () =>
      out.lines
        .filter((l) => !/^EVENT\s/.test(l))
        .map((l) => l.trim().split(/\s+/))
        .map((c) => ({ event: c[0], name: c[1], labels: c[c.length - 1] })),
    async kill() {
      if (out.exit === null) child.kill('SIGKILL')
      await exited
      rmSync(cacheDir, { recursive: true, force: true })
    },
  }
}

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v} get pods -w --output-watch-events`, () => {
    it('prints ADDED, MODIFIED and DELETED for a pod created, labelled and deleted while it runs', async () => {
      const ns = await makeNs(`kw${v.replace('.', '')}`)
      await createPod(ns, 'seed', { role: 'seed' })
      const w = kubectlWatch(v, ns)
      try {
        const describeOut = () =>
          `kubectl output:\n${w.out.lines.join('\n')}\nstderr:\n${w.out.stderr}\nexit: ${JSON.stringify(w.out.exit)}`
        // The initial list: kubectl prints what exists as ADDED, under a header with the EVENT column.
        const seen = (event, name) => w.rows().some((r) => r.event === event && r.name === name)
        assert.ok(
          await waitFor(() => seen('ADDED', 'seed') || w.out.exit, 30_000),
          `no ADDED seed line\n${describeOut()}`,
        )
        assert.match(w.out.lines[0] ?? '', /^EVENT\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+LABELS$/, describeOut())

        await createPod(ns, 'p', { app: 'web' })
        assert.ok(await waitFor(() => seen('ADDED', 'p') || w.out.exit, 15_000), `no ADDED p line\n${describeOut()}`)
        await labelPod(ns, 'p', { tier: 'front' })
        assert.ok(
          await waitFor(() => seen('MODIFIED', 'p') || w.out.exit, 15_000),
          `no MODIFIED p line\n${describeOut()}`,
        )
        await deletePod(ns, 'p')
        assert.ok(
          await waitFor(() => seen('DELETED', 'p') || w.out.exit, 15_000),
          `no DELETED p line\n${describeOut()}`,
        )
        await sleep(300) // anything printed late (a duplicate) shows up here

        assert.equal(w.out.exit, null, `kubectl exited on its own\n${describeOut()}`)
        const rows = w.rows()
        assert.deepEqual(
          rows.map((r) => [r.event, r.name]),
          [
            ['ADDED', 'seed'],
            ['ADDED', 'p'],
            ['MODIFIED', 'p'],
            ['DELETED', 'p'],
          ],
          describeOut(),
        )
        assert.equal(rows[1].labels, 'app=web', describeOut())
        assert.equal(rows[2].labels, 'app=web,tier=front', describeOut())
        assert.doesNotMatch(w.out.stderr, /error|unable|timed out/i, describeOut())
      } finally {
        await w.kill()
      }
    })
  })
}

// ---- (b) client-node informers under concurrent writes ---------------------------------------------------------

describe('@kubernetes/client-node informers (makeInformer + listNamespacedPod) under 1,000 concurrent writes', () => {
  it('each informer ends equal to the server, and sees every change once, in order', async () => {
    const kc = new KubeConfig()
    kc.loadFromFile(KUBECONFIG)
    const core = kc.makeApiClient(CoreV1Api)
    const namespaces = await Promise.all([1, 2, 3].map(() => makeNs('inf')))

    // A few pods exist before the informers start, so their initial LIST carries items too.
    const initial = []
    for (const ns of namespaces) {
      for (let i = 0; i < 4; i++) {
        const o = await createPod(ns, `pre-${i}`, { pre: 'yes' })
        initial.push({ ns, name: o.metadata.name, uid: o.metadata.uid, rv: rvOf(o) })
      }
    }

    const informers = namespaces.map((ns) => {
      const lists = []
      const inf = makeInformer(kc, podsPath(ns), async () => {
        const l = await core.listNamespacedPod({ namespace: ns })
        lists.push({ rv: Number(l.metadata?.resourceVersion), names: l.items.map((p) => p.metadata?.name) })
        return l
      })
      const callbacks = [] // what the informer told its handlers
      const raw = [] // every event its watch delivered, before the informer's own de-duplication
      const errors = []
      let connects = 0
      const rec = (type) => (o) => callbacks.push({ type, name: o.metadata.name, uid: o.metadata.uid, rv: rvOf(o) })
      inf.on('add', rec('ADDED'))
      inf.on('update', rec('MODIFIED'))
      inf.on('delete', rec('DELETED'))
      inf.on('error', (e) => errors.push(e))
      inf.on('connect', () => connects++)
      // ListWatch re-binds this.watchHandler on every (re)connect, so wrapping the instance's method sees each event.
      const handler = inf.watchHandler
      inf.watchHandler = function (phase, obj, whole) {
        const m = obj?.metadata ?? {}
        raw.push({ type: phase, name: m.name, uid: m.uid, rv: Number(m.resourceVersion) })
        return handler.call(this, phase, obj, whole)
      }
      return { ns, inf, lists, callbacks, raw, errors, connects: () => connects }
    })

    try {
      // start() resolves once the LIST is done and the WATCH request has its response headers.
      await Promise.all(informers.map((i) => i.inf.start()))
      for (const i of informers) assert.deepEqual(i.errors, [], `informer ${i.ns} failed to start`)

      const t0 = Date.now()
      const acked = await workload({ namespaces, total: 1000, concurrency: 16, seed: 1, initial })
      const writeMs = Date.now() - t0

      for (const i of informers) {
        const mine = acked.filter((a) => a.ns === i.ns)
        const wantRvs = new Set(mine.map((a) => a.rv))
        const ok = await waitFor(
          () => i.errors.length > 0 || [...wantRvs].every((rv) => i.raw.some((e) => e.rv === rv)),
          20_000,
        )
        assert.ok(ok, `informer ${i.ns}: not all events arrived within 20 s after the writes`)
        assert.deepEqual(i.errors.map(String), [], `informer ${i.ns} reported errors`)
        assert.equal(
          i.lists.length,
          1,
          `informer ${i.ns} re-listed (${i.lists.length} lists): a watch ended with an error`,
        )
        const listRv = i.lists[0].rv
        assert.deepEqual(i.lists[0].names.sort(), ['pre-0', 'pre-1', 'pre-2', 'pre-3'])

        // The raw watch stream: only changes after the list's rv, in rv order, each acknowledged write exactly once.
        const changes = i.raw.filter((e) => e.type !== 'BOOKMARK')
        for (const e of changes)
          assert.ok(e.rv > listRv, `informer ${i.ns}: event at rv ${e.rv} is not after the list (rv ${listRv})`)
        for (let k = 1; k < changes.length; k++) {
          assert.ok(
            changes[k].rv > changes[k - 1].rv,
            `informer ${i.ns}: rv ${changes[k].rv} after ${changes[k - 1].rv} (${changes[k].type} ${changes[k].name})`,
          )
        }
        assertExactlyOnce(
          changes.map((e) => ({ ...e, ns: i.ns })),
          mine,
          `informer ${i.ns} watch`,
        )

        // What the informer told its handlers: per object, the initial add and then exactly its writes, in order.
        assertPerObjectIncreasing(i.callbacks, `informer ${i.ns} callbacks`)
        const want = new Map()
        for (const p of initial.filter((p) => p.ns === i.ns)) want.set(p.uid, [['ADDED', p.rv]])
        for (const a of mine) want.set(a.uid, [...(want.get(a.uid) ?? []), [a.type, a.rv]])
        const got = new Map()
        for (const c of i.callbacks) got.set(c.uid, [...(got.get(c.uid) ?? []), [c.type, c.rv]])
        assert.deepEqual(
          sortedEntries(got),
          sortedEntries(want),
          `informer ${i.ns}: handler calls differ from the writes`,
        )

        // The cache equals the server's final state (names and resourceVersions).
        const list = await listPods(podsPath(i.ns))
        assert.deepEqual(
          sortedEntries(byName(i.inf.list(i.ns))),
          sortedEntries(byName(list.items)),
          `informer ${i.ns} cache != server`,
        )
      }
      // Sanity: the writes really overlapped the watches and covered every kind of change.
      const types = new Set(acked.map((a) => a.type))
      assert.deepEqual([...types].sort(), ['ADDED', 'DELETED', 'MODIFIED'])
      assert.equal(acked.length, 1000)
      console.log(
        `# 1000 writes in ${writeMs} ms; informer (re)connects: ${informers.map((i) => i.connects()).join(', ')}`,
      )
    } finally {
      await Promise.all(informers.map((i) => i.inf.stop()))
    }
  })
})

// ---- (c) informer-style watch loops across server-side timeouts ------------------------------------------------

describe('watch loops resuming from the last resourceVersion while the server ends each stream (timeoutSeconds)', () => {
  it('every change arrives exactly once, in order, across the reconnects (3 namespaces + cluster-wide)', async () => {
    const namespaces = await Promise.all([1, 2, 3].map(() => makeNs('wl')))
    const mine = new Set(namespaces)
    // The informer pattern: one cluster-wide LIST, then each watch starts from its resourceVersion.
    const start = await listPods('/api/v1/pods')
    const startRv = Number(start.metadata.resourceVersion)
    const loops = [
      ...namespaces.map((ns) => ({ ns, loop: watchLoop(podsPath(ns), startRv, { timeoutSeconds: 1 }) })),
      // Without bookmarks the loop resumes from the last event it saw.
      { ns: namespaces[0], loop: watchLoop(podsPath(namespaces[0]), startRv, { timeoutSeconds: 1, bookmarks: false }) },
      { ns: null, loop: watchLoop('/api/v1/pods', startRv, { timeoutSeconds: 1 }) },
    ]
    try {
      // ~6 s of writes: each stream is ended by the server several times while changes are in flight.
      const t0 = Date.now()
      const acked = await workload({ namespaces, total: 600, concurrency: 12, seed: 2, pace: 50 })
      const writeMs = Date.now() - t0
      for (const { ns, loop } of loops) {
        const what = ns
          ? `watch loop of ${ns}${loop === loops[3].loop ? ' (no bookmarks)' : ''}`
          : 'cluster-wide watch loop'
        const want = acked.filter((a) => (ns ? a.ns === ns : true))
        const got = () => loop.state.events.filter((e) => mine.has(e.ns))
        const arrived = await waitFor(() => loop.state.errors.length > 0 || got().length >= want.length, 20_000)
        await sleep(200) // duplicates, if any, have time to show up
        assert.deepEqual(loop.state.errors, [], `${what}: errors`)
        assert.ok(arrived, `${what}: ${got().length} of ${want.length} events within 20 s`)
        const all = loop.state.events
        for (let k = 1; k < all.length; k++) {
          assert.ok(
            all[k].rv > all[k - 1].rv,
            `${what}: rv ${all[k].rv} after ${all[k - 1].rv} (${all[k].type} ${all[k].ns}/${all[k].name})`,
          )
        }
        assertExactlyOnce(got(), want, what)
        assert.ok(
          loop.state.serverEnds >= 3,
          `${what}: the server ended only ${loop.state.serverEnds} streams in ${writeMs} ms`,
        )
      }
      console.log(
        `# 600 writes in ${writeMs} ms; server-ended streams: ${loops.map((l) => l.loop.state.serverEnds).join(', ')}`,
      )
    } finally {
      await Promise.all(loops.map((l) => l.loop.stop()))
    }
  })
})

// ---- (d) WebSocket watch ---------------------------------------------------------------------------------------

describe('WebSocket watch (Node 22 global WebSocket)', () => {
  it('receives each event as one text message, and the server closes at timeoutSeconds', async () => {
    const ns = await makeNs('ws')
    const seed = await createPod(ns, 'seed')
    const url = `${KUBEFLARE_URL.replace(/^http/, 'ws')}${podsPath(ns)}?watch=true&timeoutSeconds=5`
    // A browser cannot set Authorization on a WebSocket: the token rides as kube's bearer subprotocol.
    const bearer = `base64url.bearer.authorization.k8s.io.${Buffer.from(TOKEN).toString('base64url')}`
    const ws = new WebSocket(url, [bearer, 'kubeflare.watch'])
    const messages = []
    const nonText = []
    let closed = null
    ws.addEventListener('message', (e) => {
      if (typeof e.data === 'string') messages.push(JSON.parse(e.data))
      else nonText.push(e.data)
    })
    const closing = new Promise((r) =>
      ws.addEventListener('close', (e) => r((closed = { code: e.code, reason: e.reason }))),
    )
    const errored = new Promise((r) => ws.addEventListener('error', (e) => r(e)))
    try {
      const opened = await Promise.race([
        new Promise((r) => ws.addEventListener('open', () => r(true))),
        errored.then(() => false),
        sleep(10_000),
      ])
      assert.equal(opened, true, 'the WebSocket did not open')
      // The token subprotocol is taken out; the one left is the one negotiated.
      assert.equal(ws.protocol, 'kubeflare.watch')
      assert.ok(await waitFor(() => messages.length >= 1, 5000), 'no initial event')
      const a = await createPod(ns, 'a', { v: '1' })
      const a2 = await labelPod(ns, 'a', { v: '2' })
      const gone = await deletePod(ns, 'a')
      assert.ok(await waitFor(() => messages.length >= 4, 5000), `only ${messages.length} messages`)
      await sleep(200)
      assert.deepEqual(nonText, [], 'binary messages')
      assert.deepEqual(messages, [
        { type: 'ADDED', object: seed },
        { type: 'ADDED', object: a },
        { type: 'MODIFIED', object: a2 },
        { type: 'DELETED', object: gone },
      ])
      const c = await Promise.race([closing, sleep(10_000).then(() => null)])
      assert.ok(c, 'the server did not close the WebSocket at timeoutSeconds')
      assert.equal(c.code, 1000, `close: ${JSON.stringify(c)}`)
    } finally {
      if (!closed) ws.close()
    }
  })
})

// ---- (e) cluster-wide watch ------------------------------------------------------------------------------------

describe('cluster-wide watch (/api/v1/pods?watch=true&resourceVersion=<list rv>)', () => {
  it('delivers concurrent writes from several namespaces in strictly increasing rv order, none missing', async () => {
    const namespaces = await Promise.all([1, 2, 3, 4].map(() => makeNs('cw')))
    const mine = new Set(namespaces)
    const initial = []
    for (const ns of namespaces) {
      const o = await createPod(ns, 'pre')
      initial.push({ ns, name: 'pre', uid: o.metadata.uid })
    }
    const start = await listPods('/api/v1/pods')
    const startRv = Number(start.metadata.resourceVersion)
    const events = []
    const ctrl = new AbortController()
    const q = new URLSearchParams({ watch: 'true', resourceVersion: String(startRv), timeoutSeconds: '120' })
    const stream = watchOnce(`${KUBEFLARE_URL}/api/v1/pods?${q}`, (ev) => events.push(ev), ctrl.signal)
    try {
      const acked = await workload({ namespaces, total: 400, concurrency: 16, seed: 3, initial })
      const ours = () => events.filter((e) => mine.has(e.object?.metadata?.namespace))
      const arrived = await waitFor(() => ours().length >= acked.length, 20_000)
      await sleep(200)
      assert.deepEqual(
        events.filter((e) => e.type === 'ERROR'),
        [],
        'ERROR events',
      )
      assert.ok(arrived, `${ours().length} of ${acked.length} events within 20 s`)
      // Across every namespace (ours and whatever else changed meanwhile): strictly increasing, after the list.
      const rvs = events.map((e) => rvOf(e.object))
      assert.ok(rvs[0] > startRv, `first event rv ${rvs[0]} is not after the list rv ${startRv}`)
      for (let k = 1; k < rvs.length; k++) assert.ok(rvs[k] > rvs[k - 1], `rv ${rvs[k]} after ${rvs[k - 1]}`)
      const brief = ours().map((e) => ({
        type: e.type,
        ns: e.object.metadata.namespace,
        name: e.object.metadata.name,
        uid: e.object.metadata.uid,
        rv: rvOf(e.object),
      }))
      assertExactlyOnce(brief, acked, 'cluster-wide watch')

      // The list plus the events rebuild the final state: compare with the final cluster-wide list (D1) and with
      // each namespace's list (its Durable Object).
      const state = new Map()
      for (const o of start.items)
        if (mine.has(o.metadata.namespace))
          state.set(`${o.metadata.namespace}/${o.metadata.name}`, o.metadata.resourceVersion)
      for (const e of ours()) {
        const k = `${e.object.metadata.namespace}/${e.object.metadata.name}`
        if (e.type === 'DELETED') state.delete(k)
        else state.set(k, e.object.metadata.resourceVersion)
      }
      const final = await listPods('/api/v1/pods')
      const finalMine = byKey(final.items.filter((o) => mine.has(o.metadata.namespace)))
      assert.deepEqual(sortedEntries(state), sortedEntries(finalMine), 'list + events != final cluster-wide list')
      const perNs = (await Promise.all(namespaces.map((ns) => listPods(podsPath(ns))))).flatMap((l) => l.items)
      assert.deepEqual(sortedEntries(byKey(perNs)), sortedEntries(finalMine), 'namespaced lists != cluster-wide list')
    } finally {
      ctrl.abort()
      await stream.catch(() => {})
    }
  })
})
