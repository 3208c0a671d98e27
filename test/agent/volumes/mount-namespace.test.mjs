// The process runtime's mount namespaces: an agent that is not root gets one through a user namespace mapping its own
// uid (the shim run as nobody binds a volume and exec enters with nsenter --user), and where no mount namespace can
// be had (not Linux) a container with volumes is CreateContainerConfigError with the reason, never run without them.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { ContainerProcess, SHIM } from '../../../agent/container-process.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { hostTool } from '../../../agent/host-tools.ts'
import { enterPrefix } from '../../../agent/volumes/mount-namespace.ts'

const PYTHON = '/usr/bin/python3'
const asNobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
const userns =
  process.getuid() === 0 && spawnSync(asNobody[0], [...asNobody.slice(1), 'unshare', '-rm', 'true']).status === 0
const killed = []
after(() => {
  for (const pid of killed)
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {}
})

const until = async (what, cond, ms = 10_000) => {
  const t0 = Date.now()
  for (;;) {
    const v = await cond()
    if (v) return v
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('mount namespaces', () => {
  it('gives an agent that is not root a user namespace of its own uid, which exec enters', {
    skip: userns ? false : 'needs root to become nobody, and unprivileged user namespaces',
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'userns-'))
    chmodSync(dir, 0o777)
    const volume = join(dir, 'volume')
    mkdirSync(volume)
    writeFileSync(join(volume, 'f'), 'in the volume\n')
    chmodSync(volume, 0o755)
    const target = join(dir, 'target')
    mkdirSync(target)
    chmodSync(target, 0o777)
    const spec = {
      command: ['sh', '-c', `cat ${target}/f; id -u; sleep 30`],
      dir,
      attempt: 0,
      tty: false,
      stdin: false,
      mounts: [{ source: volume, target, readOnly: true }],
    }
    // nobody must read the shim: a checkout under a 0700 directory (mktemp -d, a home) would hide it.
    const shimCopy = join(dir, 'shim.py')
    copyFileSync(SHIM, shimCopy)
    chmodSync(shimCopy, 0o644)
    const shim = spawn(asNobody[0], [...asNobody.slice(1), PYTHON, '-I', '-S', shimCopy, JSON.stringify(spec)], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const said = await new Promise((r) => {
      shim.stdout.once('data', (d) => r(String(d)))
      shim.once('close', (code) => r(`shim ended with ${code} before it started`))
    })
    assert.equal(said, 'started\n')
    const run = JSON.parse(readFileSync(join(dir, '0.run'), 'utf8'))
    killed.push(run.pid)
    await until('the output', () => readFileSync(join(dir, '0.log'), 'utf8').includes('65534'))
    const lines = readFileSync(join(dir, '0.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ').slice(3).join(' '))
    // It reads the volume at the mount point, as its own uid (mapped to itself, not root).
    assert.deepEqual(lines, ['in the volume', '65534'])
    const prefix = enterPrefix(run.pid, dir)
    assert.deepEqual(prefix.slice(0, 6), [
      hostTool('nsenter'),
      '--target',
      String(run.pid),
      '--user',
      '--preserve-credentials',
      '--mount',
    ])
    const exec = spawnSync(
      asNobody[0],
      [...asNobody.slice(1), ...prefix, 'sh', '-c', `cat ${target}/f; echo x > ${target}/g`],
      {
        encoding: 'utf8',
      },
    )
    assert.equal(exec.stdout, 'in the volume\n')
    assert.match(exec.stderr, /Read-only file system/)
    // From the host's side, the target is still the empty directory it was.
    assert.deepEqual(spawnSync('ls', ['-A', target], { encoding: 'utf8' }).stdout, '')
  })

  it('ends a run whose volume cannot be mounted with StartError naming the mount, its command never run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'badmount-'))
    const file = join(dir, 'a-file')
    writeFileSync(file, 'x')
    const marker = join(dir, 'ran')
    const p = ContainerProcess.start({
      command: ['sh', '-c', `touch ${marker}`],
      env: { PATH: process.env.PATH },
      cwd: dir,
      stdin: false,
      logFile: join(dir, '0.log'),
      // The mount point would be under a file: it cannot be made.
      mounts: [{ source: dir, target: join(file, 'inside'), readOnly: false }],
    })
    assert.equal(await p.spawned, false)
    const exit = await p.exited
    assert.deepEqual([exit.exitCode, exit.reason], [128, 'StartError'])
    assert.equal(exit.message, `error mounting volumes: Not a directory: ${join(file, 'inside')}`)
    assert.equal(existsSync(marker), false)
  })

  it('refuses a container with volumes where no mount namespace can be had (CreateContainerConfigError)', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')
    Object.defineProperty(process, 'platform', { value: 'darwin' })
    const events = []
    const statuses = []
    let pod = {
      metadata: { name: 'p', namespace: 'n', uid: 'uid-darwin', resourceVersion: '1' },
      spec: {
        nodeName: 'edge',
        containers: [
          { name: 'main', image: 'i', command: ['sleep', '30'], volumeMounts: [{ name: 'e', mountPath: '/data' }] },
        ],
        volumes: [{ name: 'e', emptyDir: {} }],
      },
    }
    const worker = new PodWorker(pod, {
      config: { dataDir: mkdtempSync(join(tmpdir(), 'darwin-')), imageDefaults: new Map(), backoffInitialMs: 5000 },
      client: {
        async request(method, _path, body) {
          if (method !== 'PATCH') return {}
          statuses.push(body.status)
          pod = {
            ...pod,
            metadata: { ...pod.metadata, resourceVersion: String(Number(pod.metadata.resourceVersion) + 1) },
            status: body.status,
          }
          return pod
        },
        async get() {
          throw new Error('none')
        },
      },
      hostIP: '192.0.2.9',
      allocatable: {},
      backoff: new Backoff(5000, 5000),
      event: (_p, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
      log: () => {},
      done: () => {},
    })
    try {
      worker.sync()
      const why = 'the process runtime cannot mount volumes on darwin: it needs Linux mount namespaces'
      await until('the waiting reason', () => statuses.at(-1)?.containerStatuses?.[0]?.state.waiting?.message === why)
      assert.deepEqual(statuses.at(-1).containerStatuses[0].state.waiting, {
        reason: 'CreateContainerConfigError',
        message: why,
      })
      assert.ok(events.includes(`Warning Failed: Error: ${why}`), String(events))
      assert.equal(worker.record('main').attempts, 0)
    } finally {
      Object.defineProperty(process, 'platform', platform)
      await worker.shutdown()
    }
  })
})
