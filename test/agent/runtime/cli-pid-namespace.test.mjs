// The PID namespace of a container runtime's run, as the agent asks the engine for it (the stand-in CLI records the
// exact `run` flags): an ephemeral container with a targetContainerName joins its target's (`--pid container:<id>`),
// a shareProcessNamespace pod's containers share one (docker: a running container's; podman as root: the pod's
// holder's, by path), a hostPID pod's is the host's; any other container has its own (no --pid).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import { sameProcess } from '../../../agent/run-files.ts'
import { pidNamespaces } from '../../../agent/runtime/pid-namespace.ts'
import { releasePodPidNamespace } from '../../../agent/runtime/pod-pid-namespace.ts'
import { image, setup, standIn, until } from './cli-harness.mjs'

const IMAGES = { 'img:1': image('sha256:1') }
const sleeper = (name, more = {}) => ({ name, image: 'img:1', command: ['sh', '-c', 'sleep 30'], ...more })
/** The --pid a run of `container` was started with (null: none). */
const pidOf = (calls, t, container) => {
  const run = calls().find((c) => c.argv[0] === 'run' && c.argv.includes(`kubeflare_${t.uid}_${container}_0`))
  assert.ok(run, `no run of ${container}`)
  const at = run.argv.indexOf('--pid')
  return at < 0 ? null : run.argv[at + 1]
}
const idOf = (t, name) =>
  [...t.last().containerStatuses, ...(t.last().ephemeralContainerStatuses ?? [])]
    .find((s) => s.name === name)
    .containerID.replace(/^[a-z]+:\/\//, '')
const running = (t, n) => t.last()?.containerStatuses?.filter((s) => s.state.running).length === n

const podDirs = []
afterEach(() => {
  for (const dir of podDirs.splice(0)) releasePodPidNamespace(dir)
})

describe('the PID namespace of a container runtime’s run', () => {
  it('docker: a shareProcessNamespace pod’s containers join the first one’s; a debugger its target’s', async () => {
    const { runtime, calls } = await standIn('docker', { images: IMAGES })
    const t = setup(runtime, { shareProcessNamespace: true, containers: [sleeper('one'), sleeper('two')] })
    await until('both running', () => running(t, 2), 15_000, t)
    assert.equal(pidOf(calls, t, 'one'), null)
    assert.equal(pidOf(calls, t, 'two'), `container:${idOf(t, 'one')}`)

    const d = setup(runtime, { containers: [sleeper('main'), sleeper('other')] })
    await until('both running', () => running(d, 2), 15_000, d)
    const pod = d.worker.current
    d.worker.update({
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: String(Number(pod.metadata.resourceVersion) + 100) },
      spec: {
        ...pod.spec,
        ephemeralContainers: [sleeper('debug', { targetContainerName: 'other' }), sleeper('alone')],
      },
    })
    const debugging = (name) => d.last()?.ephemeralContainerStatuses?.find((s) => s.name === name)?.state.running
    await until('the debuggers', () => debugging('debug') && debugging('alone'), 15_000, d)
    assert.equal(pidOf(calls, d, 'debug'), `container:${idOf(d, 'other')}`)
    // Without a target, or in a pod that shares nothing: a namespace of its own.
    for (const own of ['alone', 'main', 'other']) assert.equal(pidOf(calls, d, own), null, own)
  })

  it('a hostPID pod’s containers have the host’s', async () => {
    const { runtime, calls } = await standIn('docker', { images: IMAGES })
    const t = setup(runtime, { hostPID: true, containers: [sleeper('one')] })
    await until('running', () => running(t, 1), 15_000, t)
    assert.equal(pidOf(calls, t, 'one'), 'host')
  })

  it('podman run by root: a shareProcessNamespace pod’s containers join the pod’s holder by its path', {
    skip: pidNamespaces() && process.getuid() === 0 ? false : 'needs root and PID namespaces',
  }, async () => {
    const { runtime, calls } = await standIn('podman', { images: IMAGES })
    const t = setup(runtime, { shareProcessNamespace: true, containers: [sleeper('one'), sleeper('two')] })
    podDirs.push(t.worker.dir)
    await until('both running', () => running(t, 2), 15_000, t)
    const holder = JSON.parse(readFileSync(join(t.worker.dir, 'pidns.json'), 'utf8'))
    assert.ok(sameProcess(holder.pid, holder.pidStart))
    for (const name of ['one', 'two']) assert.equal(pidOf(calls, t, name), `ns:/proc/${holder.pid}/ns/pid`, name)
  })
})
