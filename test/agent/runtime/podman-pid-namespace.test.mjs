// PID namespaces under a real podman (skipped where podman cannot run containers here): a shareProcessNamespace pod's
// containers share the pod's holder's namespace (PID 1 is the holder, one container sees and signals the other's
// processes, a container's restart leaves the others running, the holder goes with the pod); kubectl debug --target's
// container sees its target's processes and ends with it; ended and left containers are removed, also a target a
// debugger joined (podman keeps one until what joined it is removed).
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { parseRecords } from '../../../agent/cri-log.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { sameProcess } from '../../../agent/run-files.ts'
import { pidNamespaces } from '../../../agent/runtime/pid-namespace.ts'
import { releasePodPidNamespace } from '../../../agent/runtime/pod-pid-namespace.ts'
import { selectRuntime } from '../../../agent/runtime/select-runtime.ts'
import { PODMAN_IMAGE, podmanUnusable } from './podman-image.mjs'

const root = mkdtempSync(join(tmpdir(), 'podman-pidns-'))
const savedConf = process.env.CONTAINERS_CONF
const why = podmanUnusable() ?? (pidNamespaces() && process.getuid() === 0 ? null : 'needs root and PID namespaces')
let runtime
before(async () => {
  if (why) return
  runtime = await selectRuntime('podman', {
    node: 'podman-pidns',
    backoffInitialMs: 300,
    backoffMaxMs: 1200,
    log: () => {},
  })
})
after(() => {
  if (savedConf === undefined) delete process.env.CONTAINERS_CONF
  else process.env.CONTAINERS_CONF = savedConf
})
const workers = []
afterEach(async () => {
  for (const w of workers.splice(0)) {
    await w.shutdown()
    releasePodPidNamespace(w.dir)
  }
})

function setup(spec) {
  const pod = {
    metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random().toString(36).slice(2)}`, resourceVersion: '1' },
    spec: { nodeName: 'podman-pidns', restartPolicy: 'Always', terminationGracePeriodSeconds: 1, ...spec },
  }
  const statuses = []
  let finished = false
  const worker = new PodWorker(pod, {
    config: { dataDir: mkdtempSync(join(root, 'data-')), imageDefaults: new Map(), backoffInitialMs: 300 },
    client: {
      async request(method, _path, body) {
        if (method === 'PATCH') statuses.push(body.status)
        return { ...pod, status: body.status }
      },
      async get(path) {
        throw new Error(`no ${path} here`)
      },
    },
    hostIP: '127.0.0.1',
    allocatable: {},
    backoff: new Backoff(300, 1200),
    event: () => {},
    log: (m) => process.stderr.write(`${m}\n`),
    done: () => (finished = true),
    runtime,
  })
  workers.push(worker)
  worker.sync()
  return { uid: pod.metadata.uid, worker, last: () => statuses.at(-1), finished: () => finished }
}

const until = async (what, cond, ms = 30_000) => {
  const t0 = Date.now()
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
const mark = () => String(7000 + Math.floor(Math.random() * 2000))
const sleeper = (name, m, more = {}) => ({
  name,
  image: PODMAN_IMAGE,
  imagePullPolicy: 'Never',
  command: ['sh', '-c', `exec sleep ${m}`],
  ...more,
})
/** Every process's pid and command line, as a container's /proc shows them (busybox has no ps here). */
const LIST = 'for p in /proc/[0-9]*; do echo "$p $(cat $p/cmdline)"; done'
function execIn(t, name, script) {
  const run = t.worker.record(name).execIn(['sh', '-c', script], { stdin: false, tty: false })
  return execFileSync(run.argv[0], run.argv.slice(1), { env: run.env, encoding: 'utf8' })
}
const podContainers = (uid) =>
  execFileSync('podman', ['ps', '-a', '-q', '--filter', `label=io.kubernetes.pod.uid=${uid}`], { encoding: 'utf8' })

describe('PID namespaces under podman', { skip: why ?? false }, () => {
  it('a shareProcessNamespace pod’s containers share its holder’s: each sees and signals the other’s, restarts alone', async () => {
    const [a, b] = [mark(), mark()]
    const t = setup({ shareProcessNamespace: true, containers: [sleeper('one', a), sleeper('two', b)] })
    await until('both running', () => t.last()?.containerStatuses?.every((s) => s.state.running))
    const holder = JSON.parse(readFileSync(join(t.worker.dir, 'pidns.json'), 'utf8'))
    const seen = execIn(t, 'two', LIST)
    assert.match(seen, /^\/proc\/1 .*--pod-init/m)
    const line = seen.split('\n').find((l) => l.includes(a))
    assert.ok(line, seen)
    // Two ends one's process by its pid in there: one restarts, two runs on in the same namespace.
    execIn(t, 'two', `kill ${line.split(' ')[0].replace('/proc/', '')}`)
    await until('one to restart', () => {
      const [one, two] = t.last()?.containerStatuses ?? []
      return one?.restartCount === 1 && one.state.running && two?.state.running && two.restartCount === 0
    })
    assert.ok(execIn(t, 'one', LIST).includes(b))
    t.worker.removed()
    await until('the pod to go', () => t.finished())
    assert.equal(sameProcess(holder.pid, holder.pidStart), false, 'the holder outlived its pod')
    assert.equal(podContainers(t.uid), '')
  })

  it('a debugger with a target sees the target’s processes and ends with it; the ended containers are removed', async () => {
    const a = mark()
    const t = setup({ containers: [sleeper('main', a)] })
    await until('running', () => t.last()?.containerStatuses?.[0]?.state.running)
    const pod = t.worker.current
    t.worker.update({
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: '100' },
      spec: {
        ...pod.spec,
        ephemeralContainers: [
          { ...sleeper('debug', a), command: ['sh', '-c', `${LIST}; exec sleep 300`], targetContainerName: 'main' },
        ],
      },
    })
    const debug = () => t.last()?.ephemeralContainerStatuses?.[0]?.state.running
    await until('the debugger', debug)
    const log = () =>
      parseRecords(readFileSync(t.worker.record('debug').logFile(0), 'utf8'))
        .map((r) => r.text)
        .join('\n')
    await until('its list', () => log().includes(a))
    assert.match(log(), /^\/proc\/1 sleep/m)
    // The target ends (its namespace with it, and the debugger there): it restarts, its ended container removed
    // although the debugger's container had joined it.
    execFileSync('podman', ['kill', t.last().containerStatuses[0].containerID.replace('podman://', '')])
    await until('main to restart', () => t.last()?.containerStatuses?.[0]?.restartCount === 1 && !debug())
    assert.ok(t.last().ephemeralContainerStatuses[0].state.terminated)
    await until(
      'only main’s running container left',
      () => podContainers(t.uid).trim().split('\n').length === 1,
      10_000,
    )
    t.worker.removed()
    await until('the pod to go', () => t.finished())
    await until('its containers removed', () => podContainers(t.uid) === '', 10_000)
  })

  it('removes what an earlier agent left of a target and the debugger that joined it', async () => {
    const run = (...args) => execFileSync('podman', args, { encoding: 'utf8' }).trim()
    const label = ['--label', 'kubeflare.node=podman-pidns', '--label', `io.kubernetes.pod.uid=uid-left`]
    const flags = ['run', '-d', '--network', 'host', '--pull', 'never', ...label]
    const target = run(...flags, PODMAN_IMAGE, 'sleep', mark())
    run(...flags, '--pid', `container:${target}`, PODMAN_IMAGE, 'sleep', mark())
    run('kill', target)
    const logged = []
    await runtime.reapLeftovers(
      () => false,
      (m) => logged.push(m),
    )
    assert.equal(podContainers('uid-left'), '', String(logged))
  })

  it('removes a lost run’s running target with the debugger that joined it, so the restart does not run beside it', async () => {
    const run = (...args) => execFileSync('podman', args, { encoding: 'utf8' }).trim()
    const flags = ['run', '-d', '--network', 'host', '--pull', 'never', '--label', 'io.kubernetes.pod.uid=uid-lost']
    const target = run(...flags, PODMAN_IMAGE, 'sleep', mark())
    run(...flags, '--pid', `container:${target}`, PODMAN_IMAGE, 'sleep', mark())
    const dir = mkdtempSync(join(root, 'lost-'))
    writeFileSync(join(dir, '0.cid'), `${target}\n`)
    runtime.discard(join(dir, '0.log'))
    await until('both removed', () => podContainers('uid-lost') === '', 15_000)
  })
})
