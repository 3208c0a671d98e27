// The node agent restarted as a kubelet is restarted: containers outlive it. An agent SIGKILLed while its pods run
// leaves them running under their shims; the next agent on the same data directory adopts them (same pid, startedAt,
// containerID, restartCount 0; logs keep the earlier output and get the new; exec and attach -i with stdinOnce work),
// reports a container that exited while no agent watched with its real exit code and time, and stops the containers
// of pods deleted meanwhile (for good, or gracefully: then its deletion is confirmed). SIGTERM leaves containers running; with --stop-pods-on-exit it stops them.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, kubectl, uniqueNs } from './helpers.mjs'

const node = `restart-${randomBytes(3).toString('hex')}`
const namespace = uniqueNs('restart')
const scratch = mkdtempSync(join(tmpdir(), 'kubeflare-agent-restart-'))
const trigger = join(scratch, 'exit-now')
let agent
let dataDir
const started = []

const getPod = async (name) => (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
const status = async (name) => (await getPod(name)).status?.containerStatuses?.[0]
const podOn = (name, container, spec = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: {
    nodeName: node,
    terminationGracePeriodSeconds: 2,
    containers: [{ name: 'main', image: 'busybox', ...container }],
    ...spec,
  },
})
const create = async (pod) => {
  const r = await api('POST', `/api/v1/namespaces/${namespace}/pods`, pod)
  assert.equal(r.status, 201, r.text)
}
const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
/** The host pid of a pod's container as its shim recorded it (its init's: in its PID namespace, $$ is another). */
const pidOf = async (name) => {
  const dir = join(dataDir, 'pods', (await getPod(name)).metadata.uid, 'main')
  const last = Math.max(...list(dir).flatMap((f) => (f.endsWith('.run') ? [Number(f.split('.')[0])] : [])))
  return JSON.parse(readFileSync(join(dir, `${last}.run`), 'utf8')).pid
}
/** An agent for the node on the shared data directory, leaving containers running when stopped unless `extra` says. */
function agentOn(extra = []) {
  const flags = ['--stop-pods-on-exit=false', ...extra]
  const a = startAgent(node, dataDir ? ['--data-dir', dataDir, ...flags] : flags)
  dataDir ??= a.dataDir
  started.push(a)
  return a
}
const list = (dir) => {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
/** Runs a test body; a failure carries what the agents printed. */
const withOutput = (body) => async () => {
  try {
    await body()
  } catch (e) {
    e.message += `\n--- agents' output:\n${started.map((a) => a.output()).join('\n---\n')}`
    throw e
  }
}
const k = (args, opts) => kubectl('1.33', ['-n', namespace, ...args], opts)

describe('node agent restarts', () => {
  before(async () => {
    agent = agentOn()
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await nodeRegisteredReady(node)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`)
    for (const a of started) await a.stop()
    await api('DELETE', `/api/v1/nodes/${node}`)
    // Whatever a failed test left running: every run the shims recorded without an exit.
    for (const uid of list(join(dataDir, 'pods')))
      for (const container of list(join(dataDir, 'pods', uid)))
        for (const file of list(join(dataDir, 'pods', uid, container)).filter((f) => f.endsWith('.run')))
          try {
            const dir = join(dataDir, 'pods', uid, container)
            if (!existsSync(join(dir, file.replace(/run$/, 'exit'))))
              process.kill(-JSON.parse(readFileSync(join(dir, file), 'utf8')).pid, 'SIGKILL')
          } catch {}
  })

  it(
    'SIGKILLed and started again: running containers are adopted unchanged, one that exited meanwhile has its real exit, pods deleted meanwhile are stopped',
    withOutput(async () => {
      await create(
        podOn('steady', {
          command: ['sh', '-c', `echo $$$$ > ${scratch}/steady.pid; echo hello; while sleep 1; do echo tick; done`],
        }),
      )
      await create(
        podOn(
          'talker',
          {
            stdin: true,
            stdinOnce: true,
            command: ['sh', '-c', 'echo ready; while read l; do echo heard $l; done; echo bye'],
          },
          { restartPolicy: 'Never' },
        ),
      )
      await create(
        podOn(
          'quitter',
          { command: ['sh', '-c', `until [ -e ${trigger} ]; do sleep 0.1; done; echo leaving; exit 7`] },
          { restartPolicy: 'Never' },
        ),
      )
      await create(podOn('gone', { command: ['sh', '-c', `echo $$$$ > ${scratch}/gone.pid; exec sleep 600`] }))
      await create(podOn('leaving', { command: ['sh', '-c', `echo $$$$ > ${scratch}/leaving.pid; exec sleep 600`] }))
      for (const name of ['steady', 'talker', 'quitter', 'gone', 'leaving'])
        await eventually(`${name} to run`, async () => (await status(name))?.state?.running)
      await eventually('hello in the log', async () => (await k(['logs', 'steady'])).stdout.startsWith('hello\n'))
      const before = await status('steady')
      const steadyPid = await pidOf('steady')
      const gonePid = await pidOf('gone')
      const leavingPid = await pidOf('leaving')
      assert.ok(alive(steadyPid) && alive(gonePid) && alive(leavingPid))

      await agent.stop('SIGKILL')
      const downAt = Date.now()
      assert.ok(alive(steadyPid), 'the container died with the agent')
      // While no agent watches: one container exits, one pod is deleted for good.
      writeFileSync(trigger, '')
      const deleted = await api('DELETE', `/api/v1/namespaces/${namespace}/pods/gone`, { gracePeriodSeconds: 0 })
      assert.equal(deleted.status, 200, deleted.text)
      // and one is deleted gracefully: it waits for a kubelet to stop it and confirm.
      const leaving = await api('DELETE', `/api/v1/namespaces/${namespace}/pods/leaving`)
      assert.equal(leaving.status, 200, leaving.text)
      await new Promise((r) => setTimeout(r, 1500))
      assert.ok(alive(steadyPid))

      agent = agentOn()
      const upAt = Date.now()
      const quit = await eventually('quitter’s exit to be reported', async () => {
        const s = await status('quitter')
        return s?.state?.terminated ? s : null
      })
      assert.equal(quit.state.terminated.exitCode, 7)
      assert.equal(quit.state.terminated.reason, 'Error')
      assert.equal(quit.restartCount, 0)
      const finished = Date.parse(quit.state.terminated.finishedAt)
      assert.ok(finished >= downAt - 1000 && finished <= upAt, `finishedAt ${quit.state.terminated.finishedAt}`)
      assert.equal((await getPod('quitter')).status.phase, 'Failed')
      assert.equal((await k(['logs', 'quitter'])).stdout, 'leaving\n')

      const after = await status('steady')
      assert.deepEqual(after.state, before.state)
      assert.equal(after.restartCount, 0)
      assert.equal(after.containerID, before.containerID)
      assert.ok(alive(steadyPid))
      await eventually(
        'exec through the new agent',
        async () => (await k(['exec', 'steady', '--', 'echo', 'back'], { allowFail: true })).stdout === 'back\n',
        30_000,
      )
      // exec sees the container's own process (by the pid it has in there).
      const seen = await k([
        'exec',
        'steady',
        '--',
        'sh',
        '-c',
        `tr '\\0' ' ' < /proc/$(cat ${scratch}/steady.pid)/cmdline`,
      ])
      assert.match(seen.stdout, /while sleep 1; do echo tick/)
      // The earlier output and the new: a tick written after the new agent started.
      await eventually('a tick after the restart', async () => {
        const lines = (await k(['logs', 'steady', '--timestamps'])).stdout.trim().split('\n')
        assert.match(lines[0], / hello$/)
        return lines.some((l) => l.endsWith(' tick') && Date.parse(l.split(' ')[0]) > upAt)
      })
      const followed = await k(['logs', '-f', 'steady', '--tail=0'], { allowFail: true, timeout: 3500 })
      assert.match(followed.stdout, /^tick\n/)

      // stdin kept open by the shim across the restart; the client's end closes it (stdinOnce).
      const talked = await k(['attach', '-i', 'talker'], { input: 'one\ntwo\n', timeout: 30_000 })
      assert.match(talked.stdout, /heard one\nheard two\nbye\n/)
      await eventually('talker to complete', async () => (await status('talker'))?.state?.terminated?.exitCode === 0)

      await eventually('the deleted pod’s container to be stopped', async () => !alive(gonePid), 15_000)
      await eventually(
        'the gracefully deleted pod to be stopped and its deletion confirmed',
        async () =>
          !alive(leavingPid) && (await api('GET', `/api/v1/namespaces/${namespace}/pods/leaving`)).status === 404,
        15_000,
      )
    }),
  )

  it(
    'SIGTERM leaves the containers running; with --stop-pods-on-exit it stops them',
    withOutput(async () => {
      const steadyPid = await pidOf('steady')
      const before = await status('steady')
      assert.deepEqual(await agent.stop('SIGTERM'), { code: 0, signal: null })
      assert.ok(alive(steadyPid), 'SIGTERM stopped the container')
      agent = agentOn(['--stop-pods-on-exit'])
      await eventually(
        'exec through the next agent',
        async () => (await k(['exec', 'steady', '--', 'echo', 'again'], { allowFail: true })).stdout === 'again\n',
        30_000,
      )
      assert.equal((await status('steady')).containerID, before.containerID)
      assert.equal(await agent.stop('SIGTERM').then((r) => r.code), 0)
      assert.ok(!alive(steadyPid), '--stop-pods-on-exit left the container running')
    }),
  )
})
