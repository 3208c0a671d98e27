// Durability across a crash: this file starts its OWN server (not the harness's), drives concurrent creates,
// SIGKILLs the server's whole process group while requests are in flight, restarts it on the same --persist-to
// directory and checks docs/architecture.md §5.3: no acknowledged write is lost (same uid, same resourceVersion),
// the D1 view (cluster-wide list) and the Durable Objects' view (namespaced lists) agree, resourceVersions stay
// distinct, a watch from before the load replays every change once, and new writes work.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, it } from 'node:test'
import { freePort, groupAlive, nodeBin, root, sleep } from './server-process.mjs'

const READY_TIMEOUT_MS = 90_000
const CLIENTS = 16
const LOAD_MS = 5000

const rvOf = (o) => Number(o?.metadata?.resourceVersion)

/** Every server this file started, so a failure anywhere (or an early exit) still kills them. */
const servers = new Set()
function killAllNow() {
  for (const s of servers) {
    try {
      process.kill(-s.pid, 'SIGKILL')
    } catch {}
  }
}
process.on('exit', killAllNow)
// A signal ends the process without 'exit' handlers: kill the servers first (run.mjs forwards SIGINT/SIGTERM).
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    killAllNow()
    process.exit(130)
  })
}

/** This test's own admin token: its servers get a token file of their own. */
const ADMIN_TOKEN = randomBytes(18).toString('base64url')

/**
 * Starts `node scripts/start.mjs --port P --persist-to DIR --local-protocol http` in its own process group and waits
 * for GET /version (plain http: durability is the subject here, and each state directory has its own CA).
 * kill() SIGKILLs the whole group (start.mjs, wrangler's node processes, workerd) and waits until none is left.
 */
async function startServer(persistDir, logFile) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const fd = openSync(logFile, 'a')
  const tokensFile = join(dirname(persistDir), 'tokens.csv')
  writeFileSync(tokensFile, `${ADMIN_TOKEN},durability-admin,uid-durability,system:masters\n`)
  const args = ['scripts/start.mjs', '--port', String(port), '--persist-to', persistDir, '--local-protocol', 'http']
  const child = spawn(nodeBin, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, FORCE_COLOR: '0', KUBEFLARE_TOKENS_FILE: tokensFile },
  })
  closeSync(fd)
  let exit = null
  child.on('exit', (code, signal) => (exit = { code, signal }))
  const server = {
    url,
    pid: child.pid,
    async kill() {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
      for (let i = 0; i < 100 && groupAlive(child.pid); i++) await sleep(50)
      const alive = groupAlive(child.pid)
      if (!alive) servers.delete(server)
      return !alive
    },
  }
  servers.add(server)
  const t0 = Date.now()
  for (;;) {
    if (exit) throw new Error(`server exited before it was ready (${exit.code ?? exit.signal})\n${tail(logFile)}`)
    if (Date.now() - t0 > READY_TIMEOUT_MS)
      throw new Error(`server not ready after ${READY_TIMEOUT_MS / 1000} s\n${tail(logFile)}`)
    const fatal = /Build failed|The Workers runtime failed to start/.exec(readFileSync(logFile, 'utf8'))
    if (fatal) throw new Error(`server failed to start: ${fatal[0]}\n${tail(logFile)}`)
    try {
      const r = await fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) })
      await r.arrayBuffer()
      if (r.ok) break
    } catch {}
    await sleep(200)
  }
  server.readyMs = Date.now() - t0
  return server
}

function tail(file, lines = 60) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch (e) {
    return `(cannot read ${file}: ${e.message})`
  }
}

async function call(base, method, path, body) {
  const headers = { accept: 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  })
  const text = await res.text()
  let json
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {}
  return { status: res.status, text, body: json }
}

const pod = (name) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { load: 'yes' } },
  // No scheduler picks it up and no simulated kubelet changes it: what was acknowledged is what must be stored.
  spec: { schedulerName: 'none', containers: [{ name: 'main', image: 'nginx:1.25' }] },
})

const uniq = (p) => `${p}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`

describe('durability: SIGKILL of the whole server mid-load, restart on the same --persist-to', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'kubeflare-durability-'))
  const persistDir = join(tmp, 'state')
  const logFile = join(tmp, 'server.log')
  let failed = false

  after(async () => {
    for (const s of [...servers]) await s.kill()
    const left = [...servers].map((s) => s.pid)
    if (failed || left.length)
      process.stderr.write(`# durability: server state and log kept in ${tmp}\n${tail(logFile, 40)}\n`)
    else rmSync(tmp, { recursive: true, force: true })
    assert.deepEqual(left, [], 'server process groups still alive')
  })

  it('keeps every acknowledged create; D1 and the Durable Objects agree; new writes work', async () => {
    try {
      await run()
    } catch (e) {
      failed = true
      throw e
    }
  })

  async function run() {
    const t0 = Date.now()
    let server = await startServer(persistDir, logFile)
    const started = Date.now()
    const namespaces = [uniq('dur-a'), uniq('dur-b')]
    for (const ns of namespaces) {
      const r = await call(server.url, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })
      assert.equal(r.status, 201, r.text)
    }
    const before = await call(server.url, 'GET', '/api/v1/pods')
    const startRv = rvOf(before.body)

    // ---- load, then SIGKILL while requests are in flight ----
    const acked = [] // {ns, name, uid, rv}
    const unknown = [] // creates whose answer never came (the kill cut them off)
    const refused = [] // any other answer
    let inFlight = 0
    let stop = false
    let inFlightAtKill = 0
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; !stop; i++) {
        const ns = namespaces[(c + i) % namespaces.length]
        const name = `c${c}-${i}`
        inFlight++
        try {
          const r = await call(server.url, 'POST', `/api/v1/namespaces/${ns}/pods`, pod(name))
          if (r.status === 201) acked.push({ ns, name, uid: r.body.metadata.uid, rv: rvOf(r.body) })
          else refused.push({ ns, name, status: r.status, text: r.text.slice(0, 300) })
        } catch (e) {
          unknown.push({ ns, name, error: String(e.cause?.code ?? e.message) })
          return // the server is gone
        } finally {
          inFlight--
        }
      }
    })
    await sleep(LOAD_MS)
    inFlightAtKill = inFlight
    const ackedAtKill = acked.length
    assert.ok(await server.kill(), 'the server process group survived SIGKILL')
    stop = true
    await Promise.all(clients)
    const killedAt = Date.now()

    assert.ok(inFlightAtKill > 0, 'no request was in flight when the server was killed')
    assert.ok(acked.length >= 50, `only ${acked.length} creates were acknowledged in ${LOAD_MS} ms`)
    // A 503 would be legal (D1 unavailable); nothing else is.
    assert.deepEqual(
      refused.filter((r) => r.status !== 503),
      [],
      'creates refused during the load',
    )
    for (const a of acked)
      assert.ok(Number.isInteger(a.rv) && a.uid, `acknowledged without rv/uid: ${JSON.stringify(a)}`)
    assert.equal(new Set(acked.map((a) => a.rv)).size, acked.length, 'two acknowledged creates share a resourceVersion')

    // ---- restart on the same state ----
    server = await startServer(persistDir, logFile)
    const base = server.url

    // 1. Every acknowledged pod is there, with the uid and resourceVersion its create answered.
    const lost = []
    const changed = []
    await Promise.all(
      Array.from({ length: 8 }, async (_, k) => {
        for (let i = k; i < acked.length; i += 8) {
          const a = acked[i]
          const r = await call(base, 'GET', `/api/v1/namespaces/${a.ns}/pods/${a.name}`)
          if (r.status !== 200) lost.push(`${a.ns}/${a.name}@${a.rv}: ${r.status}`)
          else if (r.body.metadata.uid !== a.uid || rvOf(r.body) !== a.rv) {
            changed.push(
              `${a.ns}/${a.name}: uid ${a.uid} rv ${a.rv} -> uid ${r.body.metadata.uid} rv ${r.body.metadata.resourceVersion}`,
            )
          }
        }
      }),
    )
    assert.deepEqual(
      lost.slice(0, 20),
      [],
      `${lost.length} of ${acked.length} acknowledged creates lost after the crash`,
    )
    assert.deepEqual(changed.slice(0, 20), [], 'acknowledged pods changed across the crash')

    // 2. The cluster-wide list (served from D1) and the namespaced lists (each namespace's Durable Object) agree.
    const summary = (o) => `${o.metadata.namespace}/${o.metadata.name} ${o.metadata.uid} ${o.metadata.resourceVersion}`
    const cluster = await call(base, 'GET', '/api/v1/pods')
    assert.equal(cluster.status, 200, cluster.text)
    const fromD1 = cluster.body.items
      .filter((o) => namespaces.includes(o.metadata.namespace))
      .map(summary)
      .sort()
    const fromDOs = []
    for (const ns of namespaces) {
      const l = await call(base, 'GET', `/api/v1/namespaces/${ns}/pods`)
      assert.equal(l.status, 200, l.text)
      fromDOs.push(...l.body.items.map(summary))
    }
    fromDOs.sort()
    assert.deepEqual(fromDOs, fromD1, 'namespaced lists (DOs) != cluster-wide list (D1)')
    // Survivors: the acknowledged creates plus, possibly, some whose answer the kill cut off; nothing else.
    const known = new Set([...acked, ...unknown].map((a) => `${a.ns}/${a.name}`))
    const strays = fromD1.map((s) => s.split(' ')[0]).filter((k) => !known.has(k))
    assert.deepEqual(strays, [], 'pods nobody created')
    const survivorsInFlight = unknown.filter((u) => fromD1.some((s) => s.startsWith(`${u.ns}/${u.name} `))).length

    // 3. resourceVersions of the survivors are distinct, and beyond the pre-load list.
    const rvs = fromD1.map((s) => Number(s.split(' ')[2]))
    assert.equal(new Set(rvs).size, rvs.length, 'survivors share resourceVersions')
    for (const rv of rvs) assert.ok(rv > startRv, `survivor rv ${rv} <= pre-load rv ${startRv}`)

    // 4. A watch from before the load replays each survivor's creation exactly once, in rv order (local history
    //    after catch-up from the D1 log).
    for (const ns of namespaces) {
      const r = await fetch(
        `${base}/api/v1/namespaces/${ns}/pods?watch=true&resourceVersion=${startRv}&timeoutSeconds=1`,
        { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, signal: AbortSignal.timeout(20_000) },
      )
      assert.equal(r.status, 200)
      const events = (await r.text())
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
      const got = events.map((e) => `${e.type} ${summary(e.object)}`)
      const want = fromD1
        .filter((s) => s.startsWith(`${ns}/`))
        .sort((x, y) => Number(x.split(' ')[2]) - Number(y.split(' ')[2]))
        .map((s) => `ADDED ${s}`)
      assert.deepEqual(got, want, `watch of ${ns} from rv ${startRv} after the restart`)
    }

    // 5. New writes work, with resourceVersions beyond everything that survived.
    const maxRv = Math.max(startRv, ...rvs)
    for (const ns of namespaces) {
      const c = await call(base, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('after-restart'))
      assert.equal(c.status, 201, c.text)
      assert.ok(rvOf(c.body) > maxRv, `new write rv ${rvOf(c.body)} <= ${maxRv}`)
      const u = await call(base, 'PUT', `/api/v1/namespaces/${ns}/pods/after-restart`, {
        ...c.body,
        metadata: { ...c.body.metadata, labels: { load: 'no' } },
      })
      assert.equal(u.status, 200, u.text)
      assert.ok(rvOf(u.body) > rvOf(c.body))
      const victim = acked.find((a) => a.ns === ns)
      if (victim) {
        const d = await call(base, 'DELETE', `/api/v1/namespaces/${ns}/pods/${victim.name}`)
        assert.equal(d.status, 200, d.text)
        assert.ok(rvOf(d.body) > rvOf(u.body))
      }
      const n = await call(base, 'POST', '/api/v1/namespaces', { metadata: { name: uniq('dur-new') } })
      assert.equal(n.status, 201, n.text)
    }
    const l2 = await call(base, 'GET', '/api/v1/pods?labelSelector=load%3Dno')
    assert.deepEqual(l2.body.items.map((o) => o.metadata.namespace).sort(), [...namespaces].sort())

    process.stderr.write(
      `# durability: first start ${started - t0} ms; ${acked.length} creates acknowledged (${ackedAtKill} when killed, ` +
        `${inFlightAtKill} in flight, ${survivorsInFlight} of ${unknown.length} cut-off creates survived); ` +
        `restarted and ready ${server.readyMs} ms after the kill; checks took ${Date.now() - killedAt - server.readyMs} ms\n`,
    )
  }
})
