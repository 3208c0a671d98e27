// Lifecycle handlers as kubelet's handlerRunner runs them, without a pod worker: exec (its failure worded as kubelet
// words it, output and all), httpGet (to the pod's IP by default, named ports, headers, kube-lifecycle's user agent,
// any answer a success, a refused connection a failure, the HTTPS-to-HTTP fallback), sleep, an abort, and tcpSocket
// refused as an invalid handler.
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { goQuote, handlerString, resolveHookPort, runHook } from '../../agent/lifecycle-hooks.ts'

const pod = { metadata: { name: 'p', namespace: 'n', uid: 'u1' } }
const cwd = mkdtempSync(join(tmpdir(), 'hooks-'))
const events = []
const target = (container = { name: 'c' }, signal = new AbortController().signal) => ({
  pod,
  container,
  podIP: '127.0.0.1',
  exec: (command) => ({ argv: command, env: { PATH: process.env.PATH, GREETING: 'hi' }, cwd }),
  podEvent: (type, reason, message) => events.push(`${type} ${reason}: ${message}`),
  signal,
})

let server
let port
const requests = []
before(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url, headers: req.headers })
    res.statusCode = req.url.startsWith('/fail') ? 500 : 200
    res.end('ok')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = server.address().port
})
after(() => server.close())

describe('runHook', () => {
  it('runs an exec handler in the container: its environment and directory, success on exit 0', async () => {
    const failure = await runHook({ exec: { command: ['sh', '-c', 'echo "$GREETING" > greeted'] } }, target())
    assert.equal(failure, null)
    assert.ok(existsSync(join(cwd, 'greeted')))
  })

  it("words an exec failure as kubelet does: ExecSync's error, then stdout and stderr quoted", async () => {
    const failure = await runHook(
      { exec: { command: ['sh', '-c', 'echo out; echo "bad \\"x\\"" >&2; exit 3'] } },
      target(),
    )
    assert.equal(
      failure,
      'Exec lifecycle hook ([sh -c echo out; echo "bad \\"x\\"" >&2; exit 3]) for Container "c" in Pod "p_n(u1)" failed' +
        ' - error: command \'sh -c echo out; echo "bad \\"x\\"" >&2; exit 3\' exited with 3: bad "x"\n' +
        ', message: "out\\nbad \\"x\\"\\n"',
    )
  })

  it('keeps a bounded part of a chatty exec hook’s output in its message', async () => {
    const failure = await runHook(
      { exec: { command: ['sh', '-c', 'head -c 300000 /dev/zero | tr "\\0" x >&2; exit 1'] } },
      target(),
    )
    assert.match(failure, /exited with 1: x+/)
    assert.ok(failure.length < 100_000, `${failure.length} characters`)
  })

  it('sends an httpGet to the pod IP on a named port with its headers and kube-lifecycle/1.33', async () => {
    const container = { name: 'c', ports: [{ name: 'web', containerPort: port }] }
    const failure = await runHook(
      { httpGet: { path: 'hook?x=1', port: 'web', httpHeaders: [{ name: 'X-Why', value: 'stop' }] } },
      target(container),
    )
    assert.equal(failure, null)
    const req = requests.at(-1)
    assert.equal(req.url, '/hook?x=1')
    assert.equal(req.headers['user-agent'], 'kube-lifecycle/1.33')
    assert.equal(req.headers.accept, '*/*')
    assert.equal(req.headers['x-why'], 'stop')
  })

  it('takes any answer as a success (kubelet reads no status code), a refused connection as a failure', async () => {
    assert.equal(await runHook({ httpGet: { path: '/fail', port } }, target()), null)
    assert.equal(requests.at(-1).url, '/fail')
    const closed = createServer()
    await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const free = closed.address().port
    await new Promise((resolve) => closed.close(resolve))
    assert.equal(
      await runHook({ httpGet: { path: '/x', port: free } }, target()),
      `HTTP lifecycle hook (/x) for Container "c" in Pod "p_n(u1)" failed - error: Get "http://127.0.0.1:${free}/x": dial tcp 127.0.0.1:${free}: connect: connection refused`,
    )
  })

  it('tries an HTTPS hook answered in plain HTTP again over HTTP, with a LifecycleHTTPFallback event', async () => {
    events.length = 0
    assert.equal(await runHook({ httpGet: { path: '/tls', port, scheme: 'HTTPS' } }, target()), null)
    assert.equal(requests.at(-1).url, '/tls')
    assert.deepEqual(events, [
      `Warning LifecycleHTTPFallback: request to HTTPS lifecycle hook 127.0.0.1:${port} got HTTP response, retry with HTTP succeeded`,
    ])
  })

  it('resolves ports as probe.ResolveContainerPort does', () => {
    const c = { ports: [{ name: 'web', containerPort: 8080 }] }
    assert.equal(resolveHookPort('web', c), 8080)
    assert.equal(resolveHookPort('81', c), 81)
    assert.equal(resolveHookPort(82, c), 82)
    assert.throws(() => resolveHookPort('nope', c), /^Error: strconv.Atoi: parsing "nope": invalid syntax$/)
    assert.throws(() => resolveHookPort(70000, c), /^Error: invalid port number: 70000$/)
  })

  it('sleeps, and fails a sleep ended early as kubelet does', async () => {
    const t0 = Date.now()
    assert.equal(await runHook({ sleep: { seconds: 1 } }, target()), null)
    assert.ok(Date.now() - t0 >= 990)
    const control = new AbortController()
    setTimeout(() => control.abort(), 100)
    assert.equal(
      await runHook({ sleep: { seconds: 30 } }, target({ name: 'c' }, control.signal)),
      'Sleep lifecycle hook (30) for Container "c" in Pod "p_n(u1)" failed - error: container terminated before sleep hook finished',
    )
  })

  it('ends an exec handler when aborted', async () => {
    const control = new AbortController()
    setTimeout(() => control.abort(), 200)
    const t0 = Date.now()
    const failure = await runHook({ exec: { command: ['sleep', '30'] } }, target({ name: 'c' }, control.signal))
    assert.ok(Date.now() - t0 < 5000)
    assert.match(failure, /exited with 137/)
  })

  it('refuses a tcpSocket handler as an invalid handler, printed as Go prints it', async () => {
    assert.equal(
      await runHook({ tcpSocket: { port: 8080 } }, target()),
      'Cannot run handler: invalid handler: &LifecycleHandler{Exec:nil,HTTPGet:nil,TCPSocket:&TCPSocketAction{Port:{0 8080 },Host:,},Sleep:nil,}',
    )
    assert.equal(
      handlerString({ tcpSocket: { port: 'web', host: 'h' } }),
      '&LifecycleHandler{Exec:nil,HTTPGet:nil,TCPSocket:&TCPSocketAction{Port:{1 0 web},Host:h,},Sleep:nil,}',
    )
  })

  it('quotes as Go quotes', () => {
    assert.equal(goQuote('a"b\\c\n\t\x01\x7fé'), '"a\\"b\\\\c\\n\\t\\x01\\x7fé"')
  })
})
