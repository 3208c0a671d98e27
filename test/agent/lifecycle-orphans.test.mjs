// The containers of a pod deleted while no agent ran, stopped by the next agent as kubelet stops them
// (restoreSpecsFromContainerLabels, then killContainer): the preStop hook recorded at the run's start, then SIGTERM
// within the pod's grace period, not a SIGKILL; a run started before such records existed is still killed.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { Backoff } from '../../agent/backoff.ts'
import { killOrphan, recordKillSpec } from '../../agent/orphan-kill.ts'
import { PodManager } from '../../agent/pod-manager.ts'
import { PodWorker } from '../../agent/pod-worker.ts'
import { recordShim } from '../../agent/run-files.ts'
import { processRuntime } from '../../agent/runtime/process-runtime.ts'

const until = async (what, cond, ms = 20_000) => {
  const t0 = Date.now()
  while (!(await cond())) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
const sh = (script) => ['sh', '-c', script]

/** Kills every shim (and its container's session) still running under dataDir: a failed case must not leave them. */
function killShimsUnder(dataDir) {
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(dataDir)) continue
      process.kill(-Number(pid), 'SIGKILL')
    } catch {
      // gone meanwhile, or not a group leader
    }
  }
}

/** An API that answers pods/status patches and lists no pods at all (the pod was deleted while no agent ran). */
function emptyApi() {
  let pod
  return {
    async request(method, _path, body) {
      return method === 'PATCH' ? { ...pod, status: body.status } : {}
    },
    async get(path) {
      if (path.startsWith('/api/v1/pods')) return { items: [], metadata: { resourceVersion: '5' } }
      throw new Error(`no ${path} here`)
    },
    async *watch(_path, signal) {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
    },
    set pod(p) {
      pod = p
    },
  }
}

const config = (dataDir) => ({
  dataDir,
  nodeName: 'edge',
  imageDefaults: new Map(),
  backoffInitialMs: 100,
  backoffMaxMs: 400,
})

describe('containers of pods deleted while no agent ran', () => {
  it('are stopped with their preStop hook, then SIGTERM, by the next agent', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orphans-'))
    const scratch = mkdtempSync(join(tmpdir(), 'orphans-host-'))
    const pod = {
      metadata: { name: 'p', namespace: 'n', uid: `uid-${Math.random()}`, resourceVersion: '1' },
      spec: {
        nodeName: 'edge',
        // The first agent's worker stays in this process: it must not start the container again once it is stopped.
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 10,
        containers: [
          {
            name: 'main',
            image: 'i',
            command: sh(
              `trap 'echo TERM saw $(cat stopping) > ${scratch}/termed; exit 0' TERM; while true; do sleep 0.05; done`,
            ),
            lifecycle: { preStop: { exec: { command: sh('echo prestop > stopping') } } },
          },
        ],
      },
    }
    const api = emptyApi()
    api.pod = pod
    try {
      // The agent that started the container, gone without stopping it (its shim keeps it running).
      const first = new PodWorker(pod, {
        config: config(dataDir),
        client: api,
        hostIP: '127.0.0.1',
        allocatable: {},
        backoff: new Backoff(100, 400),
        event: () => {},
        log: () => {},
        done: () => {},
      })
      first.sync()
      const record = first.record('main')
      await until('Running', () => record.running)
      const podDir = first.dir
      // The next agent: the pod is not listed.
      const manager = new PodManager({
        config: config(dataDir),
        client: api,
        hostIP: '127.0.0.1',
        allocatable: {},
        event: () => {},
        log: () => {},
      })
      void manager.run()
      await until('the pod directory removed', () => !existsSync(podDir))
      await manager.stop(false)
      assert.equal(readFileSync(join(scratch, 'termed'), 'utf8'), 'TERM saw prestop\n')
    } finally {
      killShimsUnder(dataDir)
      rmSync(scratch, { recursive: true, force: true })
    }
  })

  it('gives up on a shim that never records its run within the grace period (its kill left to the records)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orphans-'))
    recordKillSpec(dir, {
      pod: { name: 'p', namespace: 'n', uid: 'u' },
      podIP: '127.0.0.1',
      container: { name: 'main', preStop: { exec: { command: ['true'] } } },
      graceSeconds: 1,
      cwd: dir,
    })
    // A shim stuck while starting its run (alive, as recorded at launch, nothing recorded by it).
    const stuck = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
    try {
      await until('the stand-in shim', () => existsSync(`/proc/${stuck.pid}/stat`))
      recordShim(dir, 0, stuck.pid)
      const outcome = await Promise.race([
        killOrphan(dir, processRuntime),
        new Promise((r) => setTimeout(() => r('still waiting'), 5000)),
      ])
      assert.equal(outcome, false)
    } finally {
      process.kill(-stuck.pid, 'SIGKILL')
    }
  })
})
