// The pods of this node a new agent finds already finished (no worker runs them): their memory volumes released at
// once, as kubelet unmounts a terminated pod's volumes, and their directories removed when the API deletes them,
// not left until a later agent's start.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, it } from 'node:test'
import { PodManager } from '../../agent/pod-manager.ts'

const until = async (what, cond, ms = 10_000) => {
  const t0 = Date.now()
  while (!(await cond())) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
const mounted = (dir) => statSync(dir).dev !== statSync(dirname(dir)).dev
const canMount = process.getuid() === 0 && process.platform === 'linux'

describe('pod manager: pods that finished before the agent started', () => {
  it('releases their memory volumes, and removes their directory once the pod is deleted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manager-'))
    const uid = `uid-${Math.random()}`
    const podDir = join(dataDir, 'pods', uid)
    mkdirSync(join(podDir, 'main'), { recursive: true })
    writeFileSync(join(podDir, 'main', '0.log'), '')
    const memory = join(podDir, 'volumes', 'kubernetes.io~empty-dir', 'cache')
    mkdirSync(memory, { recursive: true })
    // A memory emptyDir the agent that ran the pod mounted.
    if (canMount) assert.equal(spawnSync('mount', ['-t', 'tmpfs', 'tmpfs', memory]).status, 0)
    const pod = {
      metadata: { name: 'done', namespace: 'n', uid, resourceVersion: '3' },
      spec: { nodeName: 'edge', containers: [{ name: 'main' }] },
      status: { phase: 'Succeeded' },
    }
    let deleted
    const api = {
      async request() {
        return {}
      },
      async get(path) {
        if (path.startsWith('/api/v1/pods')) return { items: [pod], metadata: { resourceVersion: '5' } }
        throw new Error(`no ${path} here`)
      },
      async *watch(_path, signal) {
        const ev = await new Promise((resolve) => {
          deleted = resolve
          signal.addEventListener('abort', () => resolve(null), { once: true })
        })
        if (ev) yield ev
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
      },
    }
    const manager = new PodManager({
      config: { dataDir, nodeName: 'edge', imageDefaults: new Map(), backoffInitialMs: 100, backoffMaxMs: 400 },
      client: api,
      hostIP: '127.0.0.1',
      allocatable: {},
      event: () => {},
      log: () => {},
    })
    void manager.run()
    try {
      if (canMount) await until('the tmpfs released', () => !mounted(memory))
      await until('watching', () => deleted)
      // Listed: its directory (its logs) stays while the pod does.
      assert.ok(existsSync(join(podDir, 'main', '0.log')))
      deleted({ type: 'DELETED', object: { ...pod, metadata: { ...pod.metadata, resourceVersion: '6' } } })
      await until('the pod directory removed', () => !existsSync(podDir))
    } finally {
      await manager.stop(false)
      if (canMount && existsSync(memory) && mounted(memory)) spawnSync('umount', [memory])
    }
  })
})
