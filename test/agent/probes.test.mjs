// Probes against real listeners and processes: httpGet status codes and named ports, tcpSocket, exec, and the
// success/failure thresholds that flip a probe's result.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { createServer as createTcpServer } from 'node:net'
import { tmpdir } from 'node:os'
import { after, before, describe, it } from 'node:test'
import { ProbeWorker, runProbe } from '../../agent/probes.ts'

let server
let port = 0
let health = 200
before(async () => {
  server = createServer((req, res) => {
    res.statusCode = req.url === '/healthz' ? health : 404
    res.end(req.headers['x-probe'] ?? '')
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  port = server.address().port
})
after(() => server.close())

const target = () => ({
  env: { PATH: process.env.PATH },
  cwd: tmpdir(),
  ports: [{ name: 'http', containerPort: port }],
  host: '127.0.0.1',
})

describe('runProbe', () => {
  it('httpGet succeeds on 2xx/3xx, by number or port name', async () => {
    health = 200
    assert.equal((await runProbe({ httpGet: { path: '/healthz', port } }, target())).ok, true)
    assert.equal((await runProbe({ httpGet: { path: 'healthz', port: 'http' } }, target())).ok, true)
    health = 500
    assert.deepEqual(await runProbe({ httpGet: { path: '/healthz', port } }, target()), {
      ok: false,
      output: 'HTTP probe failed with statuscode: 500',
    })
  })

  it('httpGet words a refused connection as the kubelet does', async () => {
    const closed = createTcpServer()
    await new Promise((r) => closed.listen(0, '127.0.0.1', r))
    const p = closed.address().port
    await new Promise((r) => closed.close(r))
    const out = await runProbe({ httpGet: { path: '/', port: p } }, target())
    assert.deepEqual(out, {
      ok: false,
      output: `Get "http://127.0.0.1:${p}/": dial tcp 127.0.0.1:${p}: connect: connection refused`,
    })
  })

  it('tcpSocket connects', async () => {
    assert.equal((await runProbe({ tcpSocket: { port } }, target())).ok, true)
  })

  it('exec succeeds on exit 0, in the container environment', async () => {
    const t = { ...target(), env: { ...target().env, WANT: 'yes' } }
    assert.equal((await runProbe({ exec: { command: ['sh', '-c', 'test "$WANT" = yes'] } }, t)).ok, true)
    assert.deepEqual(await runProbe({ exec: { command: ['sh', '-c', 'echo nope; exit 1'] } }, t), {
      ok: false,
      output: 'nope\n',
    })
  })

  it('exec gives up after timeoutSeconds', async () => {
    const out = await runProbe({ exec: { command: ['sleep', '5'] }, timeoutSeconds: 0.2 }, target())
    assert.equal(out.ok, false)
  })

  it('refuses probe kinds a process runtime cannot run', async () => {
    assert.equal((await runProbe({ grpc: { port } }, target())).ok, false)
  })
})

describe('ProbeWorker', () => {
  it('flips after failureThreshold failures and back after successThreshold successes', async () => {
    health = 200
    const changes = []
    const failures = []
    const probe = { httpGet: { path: '/healthz', port }, periodSeconds: 0.05, failureThreshold: 2, successThreshold: 2 }
    const w = new ProbeWorker(
      'readiness',
      probe,
      target(),
      (ok) => changes.push(ok),
      (o) => failures.push(o),
    )
    assert.equal(w.result, false)
    w.start()
    const until = async (cond) => {
      for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 20))
    }
    await until(() => changes.length === 1)
    assert.deepEqual(changes, [true])
    health = 503
    await until(() => changes.length === 2)
    assert.deepEqual(changes, [true, false])
    assert.ok(failures.length >= 2)
    w.stop()
    assert.equal(w.result, false)
  })

  it('a liveness probe starts out passing', () => {
    assert.equal(
      new ProbeWorker(
        'liveness',
        {},
        target(),
        () => {},
        () => {},
      ).result,
      true,
    )
  })
})
