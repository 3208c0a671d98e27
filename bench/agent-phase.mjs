// The `agent` phase of `npm run bench` (bench/run.mjs calls it): a real node's streams through its tunnel, each next
// to a bare local baseline measured in the same run. A node agent (`agent/main.ts`, process runtime) is started against
// the bench's Miniflare with the admin's token and runs three pods, each a Node process: `sleeper`, `firehose` (a TCP
// port that writes BENCH_AGENT_PF_MB to whoever connects, then closes) and `ticker` (a line with its wall-clock time
// in microseconds every 50 ms). Then, with no kubectl in the way:
//   exec     BENCH_AGENT_EXECS sequential `exec` of `true` over WebSocket v5.channel.k8s.io: from the connect to the
//            exit Status on the error channel (what a client waits for) and to the close; against spawning `true`
//            locally and waiting for its exit.
//   forward  one port-forward (WebSocket portforward.k8s.io) reading the firehose's bytes (random, so no
//            permessage-deflate on the way gets them cheaply): MB/s from the first byte to the last; against the same
//            bytes over a bare loopback TCP connection.
//   upload   one port-forward writing BENCH_AGENT_PF_MB of random bytes to the `sink` pod, which tells how much it has
//            received after every MiB: the client keeps at most 8 MiB unconfirmed (the channel protocol has no flow
//            control of its own; what runs further ahead of the agent waits in the node object's SQLite, which is not
//            what this row measures); MB/s from the first write to the sink's last count.
//   logs -f  a follow of the ticker's log for BENCH_AGENT_LOG_S: how long after the pod wrote a line the client has it.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { LeanWebSocket } from './ws-client.mjs'

const NS = 'agent-bench'
const NODE = 'bench-agent'
const now = () => performance.now()
const wallUs = () => (performance.timeOrigin + performance.now()) * 1000
const r1 = (x) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null)

function percentiles(xs) {
  const s = [...xs].sort((a, b) => a - b)
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]
  return { n: s.length, p50: r1(at(0.5)), p99: r1(at(0.99)), max: r1(s.at(-1)) }
}

/** The firehose: on each connection, `bytes` in 64 KiB writes of random bytes (as fast as the reader takes them), then
 * the end. */
const firehose = (port, bytes) => `
const net = require('node:net')
const chunk = require('node:crypto').randomBytes(65536)
net.createServer((s) => {
  let left = ${bytes}
  const pump = () => {
    while (left > 0) {
      const c = left >= chunk.length ? chunk : chunk.subarray(0, left)
      left -= c.length
      if (!s.write(c)) return s.once('drain', pump)
    }
    s.end()
  }
  pump()
  s.on('error', () => {})
}).listen(${port}, '127.0.0.1')`

/** The sink: counts what each connection sends and writes the running total (a decimal line) after every MiB and
 * once it has `bytes`. */
const sink = (port, bytes) => `
const net = require('node:net')
net.createServer((s) => {
  let got = 0
  let told = 0
  s.on('data', (d) => {
    got += d.length
    if (got - told >= 1048576 || got >= ${bytes}) {
      told = got
      s.write(got + '\\n')
    }
  })
  s.on('error', () => {})
}).listen(${port}, '127.0.0.1')`

const TICKER = `setInterval(() => process.stdout.write(String(Math.round((performance.timeOrigin + performance.now()) * 1000)) + '\\n'), 50)`

/** Copies `bytes` over a bare loopback TCP connection: MB/s from the first byte to the last. */
async function bareTcp(bytes) {
  const server = net.createServer((s) => {
    const chunk = Buffer.alloc(65536, 120)
    let left = bytes
    const pump = () => {
      while (left > 0) {
        const c = left >= chunk.length ? chunk : chunk.subarray(0, left)
        left -= c.length
        if (!s.write(c)) return s.once('drain', pump)
      }
      s.end()
    }
    pump()
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  try {
    return await new Promise((resolve, reject) => {
      let got = 0
      let first = 0
      const c = net.connect(server.address().port, '127.0.0.1')
      c.on('data', (d) => {
        if (!first) first = now()
        got += d.length
      })
      c.on('end', () => resolve({ bytes: got, mbps: r1(got / 1e6 / ((now() - first) / 1000)) }))
      c.on('error', reject)
    })
  } finally {
    server.close()
  }
}

/** Spawns `true` and waits for its exit, `n` times: each one's milliseconds. */
async function localSpawns(n) {
  const out = []
  for (let i = 0; i < n; i++) {
    const t0 = now()
    await new Promise((resolve, reject) => spawn('true').on('exit', resolve).on('error', reject))
    out.push(now() - t0)
  }
  return out
}

export async function agentPhase({ root, port, token, request, say }) {
  const execs = Number(process.env.BENCH_AGENT_EXECS || 100)
  const pfBytes = Number(process.env.BENCH_AGENT_PF_MB || 100) * 1e6
  const logS = Number(process.env.BENCH_AGENT_LOG_S || 5)
  const dir = mkdtempSync(join(tmpdir(), 'kubeflare-bench-agent-'))
  const kubeconfig = join(dir, 'kubeconfig.yaml')
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: bench, cluster: {server: "http://127.0.0.1:' + port + '"}}]',
      `users: [{name: admin, user: {token: "${token}"}}]`,
      'contexts: [{name: bench, context: {cluster: bench, user: admin}}]',
      'current-context: bench',
      '',
    ].join('\n'),
  )
  let output = ''
  const agent = spawn(
    process.execPath,
    [
      '--experimental-strip-types',
      join(root, 'agent', 'main.ts'),
      '--kubeconfig',
      kubeconfig,
      '--node-name',
      NODE,
      '--data-dir',
      join(dir, 'data'),
      // Containers outlive a stopped agent by default (as a kubelet's do); the bench leaves nothing running.
      '--stop-pods-on-exit',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  agent.stdout.setEncoding('utf8').on('data', (d) => (output += d))
  agent.stderr.setEncoding('utf8').on('data', (d) => (output += d))
  const exited = new Promise((r) => agent.on('exit', r))
  const api = async (method, path, body) => {
    const r = await request({ method, path, body: body === undefined ? undefined : JSON.stringify(body) })
    let json
    try {
      json = JSON.parse(r.body)
    } catch {}
    return { ...r, json }
  }
  const until = async (what, cond, ms = 60_000) => {
    const t0 = now()
    while (now() - t0 < ms) {
      const v = await cond()
      if (v) return v
      await sleep(100)
    }
    throw new Error(`timed out waiting for ${what}; agent said:\n${output.slice(-2000)}`)
  }
  try {
    await until('the agent’s node to be Ready and its tunnel up', async () => {
      const n = (await api('GET', `/api/v1/nodes/${NODE}`)).json
      const ready = n?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'
      return ready && output.includes('tunnel to ')
    })
    await api('POST', '/api/v1/namespaces', { metadata: { name: NS } })
    const pfPort = 20000 + Math.floor(Math.random() * 20000)
    const sinkPort = pfPort + 1
    const pod = (name, command) => ({
      metadata: { name },
      spec: {
        nodeName: NODE,
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'main', image: 'node', command }],
      },
    })
    for (const p of [
      pod('sleeper', [process.execPath, '-e', 'setInterval(() => {}, 1e9)']),
      pod('firehose', [process.execPath, '-e', firehose(pfPort, pfBytes)]),
      pod('ticker', [process.execPath, '-e', TICKER]),
      pod('sink', [process.execPath, '-e', sink(sinkPort, pfBytes)]),
    ]) {
      const r = await api('POST', `/api/v1/namespaces/${NS}/pods`, p)
      if (r.status !== 201) throw new Error(`creating pod ${p.metadata.name}: ${r.status} ${r.body.slice(0, 300)}`)
    }
    for (const name of ['sleeper', 'firehose', 'ticker', 'sink'])
      await until(
        `${name} to run`,
        async () =>
          (await api('GET', `/api/v1/namespaces/${NS}/pods/${name}`)).json?.status?.containerStatuses?.[0]?.state
            ?.running,
      )
    await sleep(500) // the firehose listening
    say(`agent: node ${NODE} Ready, pods running`)

    const ws = (path, protocol) =>
      new LeanWebSocket(`ws://127.0.0.1:${port}${path}`, {
        headers: { authorization: `Bearer ${token}`, 'sec-websocket-protocol': protocol },
      })

    // ---- exec of `true` ----
    const execOnce = () =>
      new Promise((resolve, reject) => {
        const t0 = now()
        let status = null
        let exit = ''
        const s = ws(
          `/api/v1/namespaces/${NS}/pods/sleeper/exec?command=true&stdout=true&stderr=true`,
          'v5.channel.k8s.io',
        )
        s.addEventListener('message', (e) => {
          const d = e.data
          if (Buffer.isBuffer(d) && d[0] === 3) {
            status = now() - t0
            exit = d.subarray(1).toString()
          }
        })
        s.addEventListener('error', (e) => reject(new Error(e.message)))
        s.addEventListener('close', () =>
          status === null
            ? reject(new Error('exec closed without a Status'))
            : resolve({ status, close: now() - t0, exit }),
        )
      })
    for (let i = 0; i < 5; i++) await execOnce()
    const statusMs = []
    const closeMs = []
    for (let i = 0; i < execs; i++) {
      const r = await execOnce()
      if (!r.exit.includes('"Success"')) throw new Error(`exec of true answered ${r.exit}`)
      statusMs.push(r.status)
      closeMs.push(r.close)
    }
    await localSpawns(5)
    const spawnMs = await localSpawns(execs)
    const exec = { status: percentiles(statusMs), close: percentiles(closeMs), spawn: percentiles(spawnMs) }
    say(
      `agent: exec of true p50 ${exec.status.p50} ms to the Status (${exec.close.p50} ms to the close); local spawn p50 ${exec.spawn.p50} ms`,
    )

    // ---- port-forward throughput ----
    // Node's WebSocket (undici) reads as fast as the machine allows; the lean client's per-chunk copying is made for
    // a thousand idle watchers, and what a client does not read piles up in workerd (nothing tells it to stop).
    const forward = await new Promise((resolve, reject) => {
      let got = 0
      let first = 0
      let last = 0
      let prefixed = false
      const bearer = `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`
      const s = new WebSocket(
        `ws://127.0.0.1:${port}/api/v1/namespaces/${NS}/pods/firehose/portforward?ports=${pfPort}`,
        ['portforward.k8s.io', bearer],
      )
      s.binaryType = 'arraybuffer'
      s.addEventListener('message', (e) => {
        if (typeof e.data === 'string') return
        const d = new Uint8Array(e.data)
        if (d[0] !== 0) return
        // The data channel's first message is its port.
        let n = d.length - 1
        if (!prefixed) {
          prefixed = true
          n -= 2
        }
        if (n <= 0) return
        if (!first) first = now()
        last = now()
        got += n
        if (got >= pfBytes) s.close()
      })
      s.addEventListener('error', () => reject(new Error('the port-forward WebSocket failed')))
      s.addEventListener('close', () =>
        got < pfBytes
          ? reject(new Error(`port-forward ended after ${got} of ${pfBytes} bytes`))
          : resolve({ bytes: got, mbps: r1(got / 1e6 / ((last - first) / 1000)) }),
      )
    })
    const bare = await bareTcp(pfBytes)
    say(`agent: port-forward ${forward.mbps} MB/s; bare loopback TCP ${bare.mbps} MB/s`)

    // ---- port-forward upload ----
    const upload = await new Promise((resolve, reject) => {
      const bearer = `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`
      const s = new WebSocket(
        `ws://127.0.0.1:${port}/api/v1/namespaces/${NS}/pods/sink/portforward?ports=${sinkPort}`,
        ['portforward.k8s.io', bearer],
      )
      s.binaryType = 'arraybuffer'
      const chunk = Buffer.concat([Buffer.of(0), randomBytes(65536)])
      let sent = 0
      let confirmed = 0
      let first = 0
      let text = ''
      let prefixed = false
      const pump = () => {
        if (!first) first = now()
        while (sent < pfBytes && sent - confirmed < 8 * 1048576) {
          s.send(chunk)
          sent += chunk.length - 1
        }
      }
      s.addEventListener('message', (e) => {
        const d = new Uint8Array(e.data)
        if (d[0] !== 0) return
        // The data channel's first message is its port.
        if (!prefixed) return void (prefixed = true)
        text += Buffer.from(d.subarray(1)).toString()
        const lines = text.split('\n')
        text = lines.pop()
        if (lines.length) confirmed = Number(lines.at(-1))
        if (confirmed >= pfBytes) {
          resolve({ bytes: confirmed, mbps: r1(confirmed / 1e6 / ((now() - first) / 1000)) })
          s.close()
        } else pump()
      })
      s.addEventListener('open', () => setTimeout(pump, 50))
      s.addEventListener('error', () => reject(new Error('the upload WebSocket failed')))
      s.addEventListener('close', (e) =>
        reject(new Error(`the upload closed after ${confirmed} of ${pfBytes} bytes: ${e.code} ${e.reason}`)),
      )
    })
    say(`agent: port-forward upload ${upload.mbps} MB/s`)

    // ---- logs -f delivery ----
    const logMs = await new Promise((resolve, reject) => {
      const lat = []
      let buffered = ''
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: `/api/v1/namespaces/${NS}/pods/ticker/log?follow=true&tailLines=0`,
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`logs -f answered ${res.statusCode}`))
          res.setEncoding('utf8')
          res.on('data', (chunk) => {
            const at = wallUs()
            buffered += chunk
            const lines = buffered.split('\n')
            buffered = lines.pop()
            for (const l of lines) if (/^\d+$/.test(l)) lat.push((at - Number(l)) / 1000)
          })
          res.on('error', () => {})
        },
      )
      req.on('error', reject)
      setTimeout(() => {
        req.destroy()
        resolve(lat)
      }, logS * 1000)
    })
    if (logMs.length < 10) throw new Error(`logs -f delivered ${logMs.length} lines in ${logS} s`)
    const logs = percentiles(logMs)
    say(`agent: logs -f line → client p50 ${logs.p50} ms / p99 ${logs.p99} ms (${logs.n} lines)`)
    return { exec, forward, upload, bare, logs }
  } catch (e) {
    return { error: e.message }
  } finally {
    await api('DELETE', `/api/v1/namespaces/${NS}`).catch(() => {})
    agent.kill('SIGTERM')
    const killer = setTimeout(() => agent.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(killer)
    rmSync(dir, { recursive: true, force: true })
  }
}

export function agentRows(P, ok) {
  const a = P.agent
  if (!a) return []
  if (a.error) return [['A real node’s streams through its tunnel (node agent)', `failed: ${a.error}`, '—', '—', '—']]
  const lat = (p) => `p50 ${p.p50} / p99 ${p.p99} ms`
  // kubectl's exec ends when the connection closes (its stdout and stderr end there), not at the exit Status.
  const above = a.exec.close.p50 - a.exec.spawn.p50
  return [
    [
      `Exec of \`true\` on a real node (node agent, WebSocket v5.channel.k8s.io, ${a.exec.close.n} sequential): to the close, what kubectl waits for; to the exit Status`,
      `${lat(a.exec.close)}; ${lat(a.exec.status)}`,
      `local spawn of \`true\`: ${lat(a.exec.spawn)}`,
      `p50 +${r1(above)} ms (+${r1(a.exec.status.p50 - a.exec.spawn.p50)} ms to the Status; Miniflare, so no close delay: \`npm start\` holds a close until 100 ms after the upgrade for wrangler dev's TLS proxy)`,
      `≤ 50 ms above${ok(above <= 50)}`,
    ],
    [
      `Port-forward throughput, ${Math.round(a.forward.bytes / 1e6)} MB of random bytes from a pod (WebSocket portforward.k8s.io)`,
      `${a.forward.mbps} MB/s`,
      `bare loopback TCP: ${a.bare.mbps} MB/s`,
      `${r1(a.forward.mbps / a.bare.mbps)}×`,
      `≥ 50 MB/s${ok(a.forward.mbps >= 50)}`,
    ],
    ...(a.upload
      ? [
          [
            `Port-forward upload, ${Math.round(a.upload.bytes / 1e6)} MB of random bytes to a pod (WebSocket portforward.k8s.io, at most 8 MiB unconfirmed)`,
            `${a.upload.mbps} MB/s`,
            `bare loopback TCP: ${a.bare.mbps} MB/s`,
            `${r1(a.upload.mbps / a.bare.mbps)}×`,
            `≥ 50 MB/s${ok(a.upload.mbps >= 50)}`,
          ],
        ]
      : []),
    [`\`logs -f\` delivery, a line written by the pod → the client (${a.logs.n} lines)`, lat(a.logs), '—', '—', '—'],
  ]
}
