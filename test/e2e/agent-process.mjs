// Starting and stopping a node agent (`npm run agent`'s command) against the e2e server, for the node agent tests.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { api, KUBECONFIG } from './helpers.mjs'
import { nodeBin, root } from './server-process.mjs'

/** The newest agent started for each node (nodeRegisteredReady waits for its tunnel). */
const agents = new Map()

/**
 * Starts an agent for `node` with short back-offs and the host's own address (Endpoints refuse loopback addresses, as
 * kube's validation does), stopping its containers when it is stopped (`--stop-pods-on-exit`: a test leaves no
 * process behind; `--stop-pods-on-exit=false` in `extra` keeps a kubelet's default); answers {child, dataDir, output(), stop()}. The agent's output is
 * kept for failure messages. `kubeconfig` names another server's (the harness's by default); `env` replaces the
 * process environment (another server's CA must not meet the harness's, given through NODE_EXTRA_CA_CERTS).
 */
export function startAgent(node, extra = [], { kubeconfig = KUBECONFIG, env = process.env } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `kubeflare-agent-${node}-`))
  const child = spawn(
    nodeBin,
    [
      '--experimental-strip-types',
      join(root, 'agent', 'main.ts'),
      '--kubeconfig',
      kubeconfig,
      '--node-name',
      node,
      '--data-dir',
      dataDir,
      '--backoff-initial',
      '1s',
      '--backoff-max',
      '4s',
      '--stop-pods-on-exit',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  )
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (output += d))
  child.stderr.setEncoding('utf8').on('data', (d) => (output += d))
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  const agent = {
    child,
    dataDir,
    exited,
    output: () => output,
    /** SIGTERM, then SIGKILL after 10 s; answers how it exited. */
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return exited
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      const result = await exited
      clearTimeout(timer)
      return result
    },
  }
  agents.set(node, agent)
  return agent
}

/** Polls `check` (async, answering a truthy value when done) every 200 ms; answers its value or throws after `ms`. */
export async function eventually(what, check, ms = 30_000) {
  const t0 = Date.now()
  let last
  for (;;) {
    try {
      const v = await check()
      if (v) return v
      last = v
    } catch (e) {
      last = e
    }
    if (Date.now() - t0 > ms)
      throw new Error(`timed out after ${ms} ms waiting for ${what} (last: ${last?.message ?? JSON.stringify(last)})`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/**
 * Waits until the agent has registered `node` and reports it Ready, and until its tunnel is connected: exec, attach,
 * logs and port-forward go through the tunnel and are refused (`no node agent is connected`) before, and a Ready node
 * does not say it is (the agent registers first and dials the tunnel beside). No request without a pod goes through
 * the tunnel, so the agent's own word is read: its last tunnel line says `connected` (it logs once the node's tunnel
 * object accepted the WebSocket), not `tunnel lost`.
 */
export async function nodeRegisteredReady(node) {
  await eventually('the node to register Ready', async () => {
    const n = (await api('GET', `/api/v1/nodes/${node}`)).body
    return n?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'
  })
  const agent = agents.get(node)
  if (!agent) return
  await eventually(`the tunnel of ${node} to connect`, () => {
    const out = agent.output()
    const up = out.lastIndexOf(`/api/v1/nodes/${node}/tunnel connected`)
    return up >= 0 && up > out.lastIndexOf('tunnel lost: reconnecting')
  })
}
