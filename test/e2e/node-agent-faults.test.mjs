// Tunnel faults end to end, against a server of this file's own (restarting it would break the harness's): the Worker
// and its Durable Objects restarted (the server's whole process group SIGKILLed, then started again on the same state
// directory and port) while an agent is connected: the agent redials with back-off, its node stays Ready, its pod
// keeps running, exec works again; and slow readers: a kubectl port-forward whose local client stops reading holds the
// pod's writer back (the agent's SPDY PING window) while workerd's memory stays flat and other streams of the node go
// on; an exec client that stops reading does not hold up the node's other streams. The server also runs with
// DefaultTolerationSeconds settings of its own (wrangler vars), which its pods get.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, startAgent } from './agent-process.mjs'
import { KUBECTL_DIR } from './helpers.mjs'
import { freePort, groupAlive, nodeBin, root, sleep } from './server-process.mjs'

const KUBECTL = join(KUBECTL_DIR, 'kubectl.1.33')
const PYTHON = '/usr/bin/python3'
const ADMIN_TOKEN = randomBytes(18).toString('base64url')
const GRACE_SECONDS = 20
const VARS = {
  NODE_MONITOR_GRACE_SECONDS: String(GRACE_SECONDS),
  KUBEFLARE_DEFAULT_NOT_READY_TOLERATION_SECONDS: '45',
  KUBEFLARE_DEFAULT_UNREACHABLE_TOLERATION_SECONDS: '7',
}

const tmp = mkdtempSync(join(tmpdir(), 'kubeflare-agent-faults-'))
const persistDir = join(tmp, 'state')
const logFile = join(tmp, 'server.log')
const kubeconfig = join(persistDir, 'kubeflare', 'kubeconfig.yaml')
const caFile = join(persistDir, 'kubeflare', 'ca.crt')
let port = 0
let server = null
let agent = null
const node = `faults-${randomBytes(3).toString('hex')}`
const namespace = `faults-${randomBytes(3).toString('hex')}`

const tail = (lines = 40) =>
  existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n') : ''

/** `npm start` (HTTPS with the state directory's own CA: kubectl sends no token over plain http), with this file's
 * vars; waits for GET /version. */
async function startServer() {
  const fd = openSync(logFile, 'a')
  const tokensFile = join(tmp, 'tokens.csv')
  writeFileSync(tokensFile, `${ADMIN_TOKEN},faults-admin,uid-faults,system:masters\n`)
  const vars = Object.entries(VARS).flatMap(([k, v]) => ['--var', `${k}:${v}`])
  const args = ['scripts/start.mjs', '--port', String(port), '--persist-to', persistDir]
  const child = spawn(nodeBin, [...args, '--nodes', '1', ...vars], {
    cwd: root,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, FORCE_COLOR: '0', KUBEFLARE_TOKENS_FILE: tokensFile },
  })
  closeSync(fd)
  let exit = null
  child.on('exit', (code, signal) => (exit = { code, signal }))
  const t0 = Date.now()
  for (;;) {
    if (exit) throw new Error(`server exited before it was ready (${exit.code ?? exit.signal})\n${tail()}`)
    if (Date.now() - t0 > 90_000) throw new Error(`server not ready after 90 s\n${tail()}`)
    if (existsSync(caFile) && (await call('GET', '/version', undefined, 2000).catch(() => null))?.status === 200) break
    await sleep(200)
  }
  return { pgid: child.pid, readyMs: Date.now() - t0 }
}

async function killServer() {
  try {
    process.kill(-server.pgid, 'SIGKILL')
  } catch {}
  for (let i = 0; i < 100 && groupAlive(server.pgid); i++) await sleep(50)
  assert.ok(!groupAlive(server.pgid), 'the server process group survived SIGKILL')
}

process.on('exit', () => {
  try {
    if (server) process.kill(-server.pgid, 'SIGKILL')
  } catch {}
})

/** Resident memory (KiB) of the server group's workerd processes. */
function workerdRssKiB() {
  let total = 0
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      if (pgrp !== server.pgid || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd')) continue
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    } catch {}
  }
  return total
}

/** A request to this file's server as its admin, over TLS that trusts the server's own CA. */
function call(method, path, body, timeout = 20_000) {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const req = httpsRequest(
      `https://127.0.0.1:${port}${path}`,
      { method, headers, ca: readFileSync(caFile), timeout },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (d) => (text += d))
        res.on('end', () => {
          let json
          try {
            json = text ? JSON.parse(text) : undefined
          } catch {}
          resolve({ status: res.statusCode, text, body: json })
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

/** kubectl 1.33 against this file's server: {code, stdout, stderr}; stdout as a Buffer with `raw`. */
function kubectl(args, { timeout = 60_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

const getPod = async (name) => (await call('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
const readyOf = (o) => o?.status?.conditions?.find((c) => c.type === 'Ready')?.status
const nodeReady = async () => readyOf((await call('GET', `/api/v1/nodes/${node}`)).body)

async function runPod(name, command, extra = {}) {
  const r = await call('POST', `/api/v1/namespaces/${namespace}/pods`, {
    metadata: { name },
    spec: {
      nodeName: node,
      terminationGracePeriodSeconds: 2,
      containers: [{ name: 'main', image: 'busybox', command, ...extra }],
    },
  })
  assert.equal(r.status, 201, r.text)
  return eventually(`${name} to be ready`, async () => {
    const p = await getPod(name)
    return p?.status?.containerStatuses?.[0]?.ready ? p : null
  })
}

/** A pod that writes to whoever connects to `port` as fast as it is let, its running total in sent.txt. */
const FIREHOSE = `
import socket, sys, threading, time
sent = 0
def report():
    while True:
        open('sent.tmp', 'w').write(str(sent))
        __import__('os').replace('sent.tmp', 'sent.txt')
        time.sleep(0.1)
threading.Thread(target=report, daemon=True).start()
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(('127.0.0.1', int(sys.argv[1])))
srv.listen(8)
chunk = b'x' * 65536
while True:
    conn, _ = srv.accept()
    try:
        while True:
            conn.sendall(chunk)
            sent += len(chunk)
    except OSError:
        conn.close()
`

describe('node agent faults', () => {
  before(async () => {
    port = await freePort()
    server = await startServer()
    // The harness's CA (NODE_EXTRA_CA_CERTS) has the same name as this server's: the agent trusts only its kubeconfig's.
    const { NODE_EXTRA_CA_CERTS: _, ...env } = process.env
    agent = startAgent(node, [], { kubeconfig, env })
    await eventually('the node to register Ready', async () => (await nodeReady()) === 'True').catch((e) => {
      throw new Error(`${e.message}\n--- agent\n${agent.output()}\n--- server\n${tail()}`)
    })
    assert.equal((await call('POST', '/api/v1/namespaces', { metadata: { name: namespace } })).status, 201)
  })
  after(async () => {
    await agent?.stop()
    if (server) await killServer()
    server = null
    rmSync(tmp, { recursive: true, force: true })
  })

  it('pods get the DefaultTolerationSeconds the server is configured with', async () => {
    const pod = await runPod('steady', ['sleep', '600'])
    assert.deepEqual(pod.spec.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 45 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 7 },
    ])
  })

  it('a Worker and Durable Object restart: the agent redials, the node stays Ready, the pod runs on, exec works', async () => {
    const before = (await getPod('steady')).status.containerStatuses[0]
    assert.equal((await kubectl(['-n', namespace, 'exec', 'steady', '--', 'echo', 'before'])).stdout, 'before\n')
    const connectedLines = () => agent.output().match(/tunnel to \S+ connected/g)?.length ?? 0
    assert.equal(connectedLines(), 1, agent.output())
    // An exec in flight when the server goes: its client gets an error, nothing hangs.
    const inFlight = kubectl(['-n', namespace, 'exec', 'steady', '--', 'sleep', '60'], { timeout: 90_000 })
    await sleep(1500)
    const killedAt = Date.now()
    await killServer()
    server = await startServer()
    const downMs = Date.now() - killedAt
    const cut = await inFlight
    assert.notEqual(cut.code, 0, 'the exec survived the server’s death')
    // The agent dials again with back-off (1 s doubling), as soon as the server answers.
    await eventually('the agent to reconnect', async () => connectedLines() === 2, 60_000).catch((e) => {
      throw new Error(`${e.message}\n--- agent\n${agent.output()}\n--- server\n${tail()}`)
    })
    const reconnectMs = Date.now() - killedAt
    assert.match(agent.output(), /tunnel lost: reconnecting/)
    assert.equal((await kubectl(['-n', namespace, 'exec', 'steady', '--', 'echo', 'after'])).stdout, 'after\n')
    // Watched past the grace a silent node gets: never Unknown, never tainted; its Lease renewed since the restart.
    const watchUntil = killedAt + (GRACE_SECONDS + 5) * 1000
    while (Date.now() < watchUntil) {
      const n = (await call('GET', `/api/v1/nodes/${node}`)).body
      assert.equal(readyOf(n), 'True', `the node went ${readyOf(n)} after the restart`)
      assert.equal(n.spec?.taints, undefined)
      await sleep(1000)
    }
    const lease = (await call('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node}`)).body
    assert.ok(Date.parse(lease.spec.renewTime) > killedAt, 'the Lease was not renewed after the restart')
    const now = (await getPod('steady')).status.containerStatuses[0]
    assert.equal(now.restartCount, 0)
    assert.equal(now.state.running.startedAt, before.state.running.startedAt, 'the pod’s process was restarted')
    process.stderr.write(`# restart: server down ${downMs} ms, agent reconnected ${reconnectMs} ms after the kill\n`)
  })

  it('a port-forward client that stops reading holds the pod’s writer back; workerd stays flat; the node serves on', async () => {
    const podPort = 20000 + Math.floor(Math.random() * 10000)
    await runPod('firehose', [PYTHON, '-c', FIREHOSE, String(podPort)], {
      readinessProbe: { tcpSocket: { port: podPort }, periodSeconds: 1 },
    })
    const local = 30000 + Math.floor(Math.random() * 10000)
    const pf = spawn(
      KUBECTL,
      ['--kubeconfig', kubeconfig, '-n', namespace, 'port-forward', 'pod/firehose', `${local}:${podPort}`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let pfOut = ''
    pf.stdout.on('data', (d) => (pfOut += d))
    pf.stderr.on('data', (d) => (pfOut += d))
    const sent = async () =>
      Number((await kubectl(['-n', namespace, 'exec', 'firehose', '--', 'cat', 'sent.txt'])).stdout || 'NaN')
    try {
      await eventually('port-forward to listen', async () => pfOut.includes('Forwarding from 127.0.0.1'))
      const rss0 = workerdRssKiB()
      let received = 0
      let stalled = false
      const socket = connect({ host: '127.0.0.1', port: local })
      socket.on('data', (d) => {
        received += d.length
        if (received > 4 * 1024 * 1024 && !stalled) {
          stalled = true
          socket.pause()
        }
      })
      await eventually('the first 4 MiB', async () => received > 4 * 1024 * 1024)
      // The client reads no more. What the pod could write fills the buffers on the way, then stops.
      await sleep(4000)
      const held = await sent()
      const rss1 = workerdRssKiB()
      await sleep(4000)
      const later = await sent()
      const rss2 = workerdRssKiB()
      const mib = (b) => (b / 2 ** 20).toFixed(1)
      process.stderr.write(
        `# slow port-forward reader: pod wrote ${mib(held)} MiB, 4 s later ${mib(later)} MiB; client took ${mib(received)} MiB; workerd RSS ${mib(rss0 * 1024)} MiB before, ${mib(rss1 * 1024)} MiB stalled, ${mib(rss2 * 1024)} MiB 4 s later\n`,
      )
      // What the buffers on the way hold (sockets' kernel buffers, kubectl's frame queue, the agent's 1 MiB window):
      // tens of MiB at most, and nothing more while the client reads nothing.
      assert.ok(held < 64 * 2 ** 20, `the pod wrote ${held} bytes to a client that stopped reading`)
      assert.ok(later - held < 2 ** 20, `the pod went on writing: ${held} then ${later}`)
      assert.ok(rss2 - rss1 < 8 * 1024, `workerd grew from ${rss1} KiB to ${rss2} KiB while the client read nothing`)
      assert.ok(rss2 - rss0 < 64 * 1024, `workerd grew from ${rss0} KiB to ${rss2} KiB`)
      // Other streams of the node go on meanwhile: exec (the counts above) and logs.
      const logs = await kubectl(['-n', namespace, 'logs', 'firehose'])
      assert.equal(logs.code, 0, logs.stderr)
      // The client reads again: the pod writes again.
      socket.resume()
      const resumedAt = received
      await eventually('the flow to resume', async () => received > resumedAt + 32 * 1024 * 1024, 60_000).catch(
        async (e) => {
          throw new Error(
            `${e.message}: client took ${received} (${resumedAt} when it resumed), pod wrote ${await sent()}\n${pfOut}\n--- agent\n${agent.output().slice(-3000)}`,
          )
        },
      )
      assert.ok((await sent()) > later)
      socket.destroy()
    } finally {
      pf.kill()
    }
  })

  it('an exec client that stops reading does not hold up the node’s other streams', async () => {
    const size = 16_000_000
    const slow = spawn(
      KUBECTL,
      ['--kubeconfig', kubeconfig, '-n', namespace, 'exec', 'steady', '--', 'head', '-c', String(size), '/dev/zero'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const exited = new Promise((resolve) => slow.on('close', (code) => resolve(code)))
    // Nothing reads its stdout yet: kubectl blocks on the pipe and stops reading its WebSocket.
    await sleep(3000)
    const t0 = Date.now()
    const other = await kubectl(['-n', namespace, 'exec', 'steady', '--', 'echo', 'meanwhile'])
    assert.equal(other.stdout, 'meanwhile\n')
    assert.ok(Date.now() - t0 < 10_000, `another exec took ${Date.now() - t0} ms`)
    let got = 0
    slow.stdout.on('data', (d) => (got += d.length))
    assert.equal(await exited, 0)
    assert.equal(got, size)
  })
})
