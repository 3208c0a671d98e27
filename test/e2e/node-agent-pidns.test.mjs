// A PID namespace per container on a real node (process runtime): what a container starts out of its process group
// (setsid, a daemon's double fork) is gone from the host once its pod is deleted, whether the agent that stops it
// started it or adopted it after a restart, or the pod was deleted while no agent ran; kubectl exec and a preStop
// hook run inside the container's namespace (ps there lists the container's processes, not the host's); a
// shareProcessNamespace pod's containers share one namespace, gone with the pod.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, kubectl, uniqueNs } from './helpers.mjs'

const node = `pidns-${randomBytes(3).toString('hex')}`
const namespace = uniqueNs('pidns')
const scratch = mkdtempSync(join(tmpdir(), 'kubeflare-agent-pidns-'))
const started = []
let agent
let dataDir
const marks = []

/** An argument no other sleep on the host has: `sleep <mark>` is found on the host by its argv. */
const mark = () => {
  const m = `${4000 + Math.floor(Math.random() * 5000)}.${process.pid}${marks.length}`
  marks.push(m)
  return m
}
/** The host pids of the live processes `sleep <mark>`. */
function marked(m) {
  const found = []
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e)))
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      if (state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${m}\0`) found.push(Number(pid))
    } catch {
      // gone meanwhile
    }
  return found
}
/** A container that leaves two sleeps out of its process group, then sleeps itself. */
const escaper = (name, [a, b, c], extra = {}, podSpec = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: {
    nodeName: node,
    terminationGracePeriodSeconds: 2,
    containers: [
      {
        name: 'main',
        image: 'busybox',
        command: ['sh', '-c', `setsid sleep ${a} & (setsid sh -c "sleep ${b} &" &); exec sleep ${c}`],
        ...extra,
      },
    ],
    ...podSpec,
  },
})
/** A shareProcessNamespace pod's holder (its pidns.json), and whether it still runs (neither gone nor a zombie). */
async function holderOf(name) {
  const uid = (await getPod(name)).body.metadata.uid
  const { pid, pidStart } = JSON.parse(readFileSync(join(dataDir, 'pods', uid, 'pidns.json'), 'utf8'))
  return {
    alive() {
      const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : ''
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return stat !== '' && fields[0] !== 'Z' && Number(fields[19]) === pidStart
    },
  }
}
const create = async (pod) => {
  const r = await api('POST', `/api/v1/namespaces/${namespace}/pods`, pod)
  assert.equal(r.status, 201, r.text)
}
const getPod = async (name) => api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)
const k = (args, opts) => kubectl('1.33', ['-n', namespace, ...args], opts)
function agentOn() {
  const a = startAgent(
    node,
    dataDir ? ['--data-dir', dataDir, '--stop-pods-on-exit=false'] : ['--stop-pods-on-exit=false'],
  )
  dataDir ??= a.dataDir
  started.push(a)
  return a
}
const withOutput = (body) => async () => {
  try {
    await body()
  } catch (e) {
    e.message += `\n--- agents' output:\n${started.map((a) => a.output().slice(-4000)).join('\n---\n')}`
    throw e
  }
}

describe('node agent: a PID namespace per container', () => {
  before(async () => {
    agent = agentOn()
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await nodeRegisteredReady(node)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`)
    for (const a of started) await a.stop()
    await api('DELETE', `/api/v1/nodes/${node}`)
    // Whatever a failed test left running, shared namespaces' holders included.
    const holders = readdirSync('/proc').filter((pid) => {
      try {
        return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--pod-init\0${dataDir}/`)
      } catch {
        return false
      }
    })
    for (const pid of [...marks.flatMap((m) => marked(m)), ...holders.map(Number)])
      try {
        process.kill(pid, 'SIGKILL')
      } catch {}
  })

  it(
    'kubectl delete pod leaves no process on the host, also after an agent restart; exec and preStop run in the container',
    withOutput(async () => {
      const kept = [mark(), mark(), mark()]
      const gone = [mark(), mark(), mark()]
      const goneShared = [mark(), mark(), mark()]
      const psFile = join(scratch, 'prestop.ps')
      await create(
        escaper('kept', kept, {
          lifecycle: { preStop: { exec: { command: ['sh', '-c', `ps -e -o args= > ${psFile}`] } } },
        }),
      )
      await create(escaper('gone', gone))
      await create(escaper('gone-shared', goneShared, {}, { shareProcessNamespace: true }))
      for (const m of [...kept, ...gone, ...goneShared])
        await eventually(`sleep ${m} on the host`, async () => marked(m).length)
      const sharedHolder = await holderOf('gone-shared')

      // exec is inside: the container's processes, none of the host's (the agent, the API server).
      const ps = (await k(['exec', 'kept', '--', 'ps', '-e', '-o', 'pid=,args='])).stdout.trim().split('\n')
      assert.match(ps[0], /^\s*1 .*shim\.py/)
      for (const m of kept)
        assert.ok(
          ps.some((l) => l.endsWith(`sleep ${m}`)),
          ps.join('\n'),
        )
      assert.ok(ps.length <= 6 && !ps.some((l) => /main\.ts|workerd/.test(l)), ps.join('\n'))

      // The agent dies; one pod is deleted for good while no agent runs; the next agent adopts the other.
      await agent.stop('SIGKILL')
      for (const name of ['gone', 'gone-shared']) {
        const deleted = await api('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`, { gracePeriodSeconds: 0 })
        assert.equal(deleted.status, 200, deleted.text)
      }
      agent = agentOn()
      await eventually(
        'the deleted pod’s leftovers to be gone',
        async () => ![...gone, ...goneShared].some((m) => marked(m).length) && !sharedHolder.alive(),
        20_000,
      )
      await eventually(
        'exec through the next agent',
        async () => (await k(['exec', 'kept', '--', 'ps', '-e', '-o', 'args='], { allowFail: true })).stdout,
        30_000,
      ).then((out) => assert.ok(out.includes(`sleep ${kept[1]}`), out))

      const removed = await k(['delete', 'pod', 'kept', '--wait=true', '--timeout=60s'])
      assert.match(removed.stdout, /pod "kept" deleted/)
      assert.equal((await getPod('kept')).status, 404)
      assert.deepEqual(
        kept.flatMap((m) => marked(m)),
        [],
        'a process of the deleted pod still runs on the host',
      )
      // The preStop hook ran in the container's namespace.
      assert.ok(existsSync(psFile), 'the preStop hook did not run')
      const seen = readFileSync(psFile, 'utf8')
      assert.ok(seen.includes(`sleep ${kept[0]}`) && !/main\.ts|workerd/.test(seen), seen)
    }),
  )

  it(
    'shareProcessNamespace: the containers see each other’s processes, and nothing of the pod is left once it is deleted',
    withOutput(async () => {
      const [a, b, c] = [mark(), mark(), mark()]
      await create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'shared', namespace },
        spec: {
          nodeName: node,
          shareProcessNamespace: true,
          terminationGracePeriodSeconds: 2,
          containers: [
            { name: 'one', image: 'busybox', command: ['sh', '-c', `exec sleep ${a}`] },
            { name: 'two', image: 'busybox', command: ['sh', '-c', `setsid sleep ${b} & exec sleep ${c}`] },
          ],
        },
      })
      for (const m of [a, b, c]) await eventually(`sleep ${m} on the host`, async () => marked(m).length)
      const holder = await holderOf('shared')
      const ps = await eventually(
        'exec into one',
        async () =>
          (await k(['exec', 'shared', '-c', 'one', '--', 'ps', '-e', '-o', 'pid=,args='], { allowFail: true })).stdout,
      )
      assert.match(ps, /^\s*1 .*--pod-init/m)
      for (const m of [a, b, c]) assert.ok(ps.includes(`sleep ${m}`), ps)
      await k(['delete', 'pod', 'shared', '--wait=true', '--timeout=60s'])
      assert.deepEqual(
        [a, b, c].flatMap((m) => marked(m)),
        [],
        'a process of the deleted pod still runs on the host',
      )
      assert.equal(holder.alive(), false, 'the pod’s PID namespace holder outlived it')
    }),
  )
})
