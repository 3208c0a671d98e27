// A pod's volumes under the process runtime, with real processes against a stand-in API: a ConfigMap, a Secret with
// its defaultMode, an emptyDir two containers share, each bound at its mountPath in the container's own mount
// namespace (the host's path stays empty) and seen by exec (nsenter); an update reaching the file; a missing
// ConfigMap's FailedMount with the containers left waiting; subPath, readOnly, hostPath types and an unbound claim.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import { Backoff } from '../../../agent/backoff.ts'
import { PodWorker } from '../../../agent/pod-worker.ts'
import { PodVolumes } from '../../../agent/volumes/pod-volumes.ts'

const b64 = (s) => Buffer.from(s).toString('base64')

function fakeApi(objects) {
  const calls = []
  let pod
  return {
    calls,
    objects,
    setPod: (p) => (pod = p),
    statuses: () => calls.filter((c) => c.method === 'PATCH').map((c) => c.body.status),
    async request(method, path, body) {
      calls.push({ method, path, body })
      if (method === 'PATCH') {
        pod = {
          ...pod,
          metadata: { ...pod.metadata, resourceVersion: String(Number(pod.metadata.resourceVersion) + 1) },
          status: body.status,
        }
        return pod
      }
      if (method === 'POST' && path.endsWith('/token'))
        return {
          status: {
            token: `token-for-${body.spec.boundObjectRef.name}`,
            expirationTimestamp: new Date(Date.now() + 3600e3).toISOString(),
          },
        }
      return {}
    },
    async get(path) {
      calls.push({ method: 'GET', path })
      const o = objects[path]
      if (!o) {
        const e = new Error('not found')
        Object.assign(e, { code: 404 })
        Object.setPrototypeOf(e, (await import('../../../agent/kube-client.ts')).KubeError.prototype)
        throw e
      }
      return o
    },
  }
}

const workers = []
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.shutdown()))
})

function setup(spec, objects = {}, dataDir = mkdtempSync(join(tmpdir(), 'vol-'))) {
  const pod = {
    metadata: {
      name: 'p',
      namespace: 'n',
      uid: `uid-${Math.random()}`,
      resourceVersion: '1',
      labels: { app: 'web', tier: 'a' },
    },
    spec: { nodeName: 'edge', restartPolicy: 'Always', terminationGracePeriodSeconds: 1, ...spec },
  }
  const api = fakeApi(objects)
  api.setPod(pod)
  const events = []
  const worker = new PodWorker(pod, {
    config: { dataDir, imageDefaults: new Map(), backoffInitialMs: 100 },
    client: api,
    hostIP: '192.0.2.9',
    allocatable: { cpu: '2', memory: '1Gi' },
    backoff: new Backoff(100, 400),
    event: (_pod, type, reason, message) => events.push(`${type} ${reason}: ${message}`),
    log: () => {},
    done: () => {},
  })
  workers.push(worker)
  return { api, events, worker }
}

const until = async (what, cond, ms = 15_000) => {
  const t0 = Date.now()
  while (!(await cond())) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
const last = (api) => api.statuses().at(-1)
const running = (api) => last(api)?.containerStatuses?.every((c) => c.state.running)
/** Runs `command` in container `name` as kubectl exec would (its host argv). */
function exec(worker, name, command) {
  const h = worker.record(name).execIn(command, { stdin: false, tty: false })
  const r = spawnSync(h.argv[0], h.argv.slice(1), { env: h.env, cwd: h.cwd, encoding: 'utf8' })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('pod volumes (process runtime)', () => {
  it('binds a ConfigMap, a Secret with defaultMode and a shared emptyDir at their mountPaths', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const t = setup(
      {
        containers: [
          {
            name: 'a',
            image: 'i',
            command: ['sh', '-c', `echo hello > ${root}/shared/from-a; sleep 30`],
            volumeMounts: [
              { name: 'config', mountPath: `${root}/etc/config` },
              { name: 'creds', mountPath: `${root}/etc/creds` },
              { name: 'shared', mountPath: `${root}/shared` },
            ],
          },
          {
            name: 'b',
            image: 'i',
            command: ['sleep', '30'],
            volumeMounts: [{ name: 'shared', mountPath: `${root}/data` }],
          },
        ],
        volumes: [
          { name: 'config', configMap: { name: 'cm', items: [{ key: 'k1', path: 'dir/one' }] } },
          { name: 'creds', secret: { secretName: 's', defaultMode: 0o400 } },
          { name: 'shared', emptyDir: {} },
        ],
      },
      {
        '/api/v1/namespaces/n/configmaps/cm': { data: { k1: 'v1', k2: 'v2' } },
        '/api/v1/namespaces/n/secrets/s': { data: { password: b64('s3cret') } },
      },
    )
    t.worker.sync()
    await until('running', () => running(t.api))
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/etc/config/dir/one`]).out, 'v1')
    assert.equal(exec(t.worker, 'a', ['ls', `${root}/etc/config`]).out, 'dir\n')
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/etc/creds/password`]).out, 's3cret')
    assert.equal(exec(t.worker, 'a', ['stat', '-L', '-c', '%a', `${root}/etc/creds/password`]).out.trim(), '400')
    await until('the shared file', () => exec(t.worker, 'b', ['cat', `${root}/data/from-a`]).out === 'hello\n')
    // API-data volumes are read-only, an emptyDir is not.
    assert.notEqual(exec(t.worker, 'a', ['sh', '-c', `echo x > ${root}/etc/config/new`]).code, 0)
    assert.equal(exec(t.worker, 'b', ['sh', '-c', `echo x > ${root}/data/new`]).code, 0)
    // The host's own paths hold none of it: the mounts live in the containers' namespaces.
    assert.deepEqual(readdirSync(join(root, 'etc/config')), [])
    assert.deepEqual(readdirSync(join(root, 'data')), [])
  })

  it("binds every volume when one is mounted over the agent's own data directory, and exec still runs", async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const dataDir = mkdtempSync(join(tmpdir(), 'vol-'))
    const t = setup(
      {
        containers: [
          {
            name: 'a',
            image: 'i',
            command: ['sleep', '30'],
            // The emptyDir hides the agent's data directory (with the ConfigMap's files) inside the container.
            volumeMounts: [
              { name: 'scratch', mountPath: dataDir },
              { name: 'c', mountPath: `${root}/c` },
            ],
          },
        ],
        volumes: [
          { name: 'scratch', emptyDir: {} },
          { name: 'c', configMap: { name: 'cm' } },
        ],
      },
      { '/api/v1/namespaces/n/configmaps/cm': { data: { k: 'v' } } },
      dataDir,
    )
    t.worker.sync()
    await until('running', () => running(t.api))
    assert.equal(exec(t.worker, 'a', ['sh', '-c', `cat ${root}/c/k; ls -A ${dataDir} | wc -l`]).out, 'v0\n')
  })

  it("keeps an emptyDir's files across a container's restarts", async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const t = setup({
      containers: [
        {
          name: 'a',
          image: 'i',
          // Each run counts itself into the volume; the first two exit, the third stays.
          command: ['sh', '-c', `echo run >> ${root}/e/runs; [ $(wc -l < ${root}/e/runs) -ge 3 ] && sleep 30; exit 1`],
          volumeMounts: [{ name: 'e', mountPath: `${root}/e` }],
        },
      ],
      volumes: [{ name: 'e', emptyDir: {} }],
    })
    t.worker.sync()
    await until(
      'the third run',
      () => last(t.api)?.containerStatuses?.[0]?.restartCount === 2 && running(t.api),
      20_000,
    )
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/e/runs`]).out, 'run\nrun\nrun\n')
  })

  it('writes a ConfigMap update into the mounted files (periodic sync)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const objects = { '/api/v1/namespaces/n/configmaps/cm': { data: { k: 'one' } } }
    const t = setup(
      {
        containers: [
          {
            name: 'a',
            image: 'i',
            command: ['sleep', '30'],
            volumeMounts: [{ name: 'c', mountPath: `${root}/c` }],
            // Fails on the host, whose path is empty: passes only inside the container's mount namespace.
            readinessProbe: { exec: { command: ['cat', `${root}/c/k`] }, periodSeconds: 1 },
          },
        ],
        volumes: [{ name: 'c', configMap: { name: 'cm' } }],
      },
      objects,
    )
    t.worker.sync()
    await until('running', () => running(t.api))
    // An exec probe runs in the container's mount namespace too: it sees the file.
    await until('ready', () => last(t.api)?.containerStatuses?.[0]?.ready)
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/c/k`]).out, 'one')
    objects['/api/v1/namespaces/n/configmaps/cm'] = { data: { k: 'two' } }
    await until('the update', () => exec(t.worker, 'a', ['cat', `${root}/c/k`]).out === 'two', 25_000)
  })

  it("writes a pod's new labels into its downwardAPI volume", async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const t = setup({
      containers: [
        {
          name: 'a',
          image: 'i',
          command: ['sleep', '30'],
          volumeMounts: [{ name: 'info', mountPath: `${root}/info` }],
        },
      ],
      volumes: [
        { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      ],
    })
    t.worker.sync()
    await until('running', () => running(t.api))
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/info/labels`]).out, 'app="web"\ntier="a"')
    const current = t.worker.current
    t.worker.update({
      ...current,
      metadata: {
        ...current.metadata,
        labels: { app: 'web', tier: 'b' },
        resourceVersion: String(Number(current.metadata.resourceVersion) + 100),
      },
    })
    await until(
      'the new labels',
      () => exec(t.worker, 'a', ['cat', `${root}/info/labels`]).out === 'app="web"\ntier="b"',
      25_000,
    )
  })

  it('leaves the containers waiting with a FailedMount event while a ConfigMap is missing, then starts them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const objects = {}
    const t = setup(
      {
        containers: [
          {
            name: 'a',
            image: 'i',
            command: ['sleep', '30'],
            volumeMounts: [{ name: 'config-volume', mountPath: `${root}/c` }],
          },
        ],
        volumes: [{ name: 'config-volume', configMap: { name: 'missing' } }],
      },
      objects,
    )
    t.worker.sync()
    await until('FailedMount', () =>
      t.events.includes(
        'Warning FailedMount: MountVolume.SetUp failed for volume "config-volume" : configmap "missing" not found',
      ),
    )
    await until('a status', () => last(t.api))
    assert.deepEqual(last(t.api).containerStatuses[0].state, { waiting: { reason: 'ContainerCreating' } })
    assert.equal(last(t.api).phase, 'Pending')
    objects['/api/v1/namespaces/n/configmaps/missing'] = { data: { k: 'v' } }
    await until('running', () => running(t.api), 20_000)
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/c/k`]).out, 'v')
  })

  it('names a missing key in the FailedMount event', async () => {
    const t = setup(
      {
        containers: [
          { name: 'a', image: 'i', command: ['sleep', '30'], volumeMounts: [{ name: 'v', mountPath: '/tmp/x' }] },
        ],
        volumes: [{ name: 'v', configMap: { name: 'cm', items: [{ key: 'nope', path: 'p' }] } }],
      },
      { '/api/v1/namespaces/n/configmaps/cm': { data: { k: 'v' } } },
    )
    t.worker.sync()
    await until('FailedMount', () =>
      t.events.includes(
        'Warning FailedMount: MountVolume.SetUp failed for volume "v" : configmap references non-existent config key: nope',
      ),
    )
  })

  it('mounts a subPath and a subPathExpr, readOnly emptyDir, and downwardAPI labels and a projected token', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const t = setup(
      {
        containers: [
          {
            name: 'a',
            image: 'i',
            command: ['sleep', '30'],
            env: [{ name: 'SUB', value: 'from-env' }],
            volumeMounts: [
              { name: 'c', mountPath: `${root}/one-file`, subPath: 'k1' },
              { name: 'e', mountPath: `${root}/sub`, subPathExpr: '$(SUB)' },
              { name: 'e', mountPath: `${root}/ro`, readOnly: true },
              { name: 'info', mountPath: `${root}/info` },
              { name: 'tok', mountPath: `${root}/tok` },
            ],
          },
        ],
        volumes: [
          { name: 'c', configMap: { name: 'cm' } },
          { name: 'e', emptyDir: {} },
          {
            name: 'info',
            downwardAPI: {
              items: [
                { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
                { path: 'cpu', resourceFieldRef: { containerName: 'a', resource: 'limits.cpu' } },
              ],
            },
          },
          {
            name: 'tok',
            projected: {
              sources: [
                { serviceAccountToken: { path: 'token', audience: 'api' } },
                { downwardAPI: { items: [{ path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
              ],
            },
          },
        ],
      },
      { '/api/v1/namespaces/n/configmaps/cm': { data: { k1: 'v1' } } },
    )
    t.worker.sync()
    await until('running', () => running(t.api))
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/one-file`]).out, 'v1')
    assert.equal(exec(t.worker, 'a', ['sh', '-c', `echo hi > ${root}/sub/f`]).code, 0)
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/ro/from-env/f`]).out, 'hi\n')
    assert.notEqual(exec(t.worker, 'a', ['sh', '-c', `echo x > ${root}/ro/g`]).code, 0)
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/info/labels`]).out, 'app="web"\ntier="a"')
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/info/cpu`]).out, '2')
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/tok/token`]).out, 'token-for-p')
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/tok/ns`]).out, 'n')
    const tr = t.api.calls.find((c) => c.path === '/api/v1/namespaces/n/serviceaccounts/default/token')
    assert.deepEqual(tr.body.spec, {
      audiences: ['api'],
      expirationSeconds: 3600,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: t.worker.uid },
    })
  })

  it('starts with an empty volume for an optional missing ConfigMap; a deleted one keeps its files with a FailedMount', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const objects = { '/api/v1/namespaces/n/configmaps/here': { data: { k: 'v' } } }
    const t = setup(
      {
        containers: [
          {
            name: 'a',
            image: 'i',
            command: ['sleep', '30'],
            volumeMounts: [
              { name: 'opt', mountPath: `${root}/opt` },
              { name: 'here', mountPath: `${root}/here` },
            ],
          },
        ],
        volumes: [
          { name: 'opt', configMap: { name: 'absent', optional: true } },
          { name: 'here', configMap: { name: 'here' } },
        ],
      },
      objects,
    )
    t.worker.sync()
    await until('running', () => running(t.api))
    assert.equal(exec(t.worker, 'a', ['ls', `${root}/opt`]).out, '')
    delete objects['/api/v1/namespaces/n/configmaps/here']
    await until(
      'the resync failure',
      () =>
        t.events.includes(
          'Warning FailedMount: MountVolume.SetUp failed for volume "here" : configmap "here" not found',
        ),
      25_000,
    )
    assert.equal(exec(t.worker, 'a', ['cat', `${root}/here/k`]).out, 'v')
  })

  it('is CreateContainerConfigError when a subPathExpr names a variable the container lacks', async () => {
    const t = setup({
      containers: [
        {
          name: 'a',
          image: 'i',
          command: ['sleep', '30'],
          volumeMounts: [{ name: 'e', mountPath: '/tmp/x', subPathExpr: '$(POD_NAME)/$(NOPE)' }],
          env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        },
      ],
      volumes: [{ name: 'e', emptyDir: {} }],
    })
    t.worker.sync()
    await until(
      'the waiting reason',
      () => last(t.api)?.containerStatuses?.[0]?.state.waiting?.reason === 'CreateContainerConfigError',
    )
    assert.deepEqual(last(t.api).containerStatuses[0].state.waiting.message, 'missing value for NOPE')
  })

  it("checks a hostPath's type with kube's message, creating what *OrCreate asks for", async () => {
    const root = mkdtempSync(join(tmpdir(), 'host-'))
    writeFileSync(join(root, 'afile'), 'x')
    const t = setup({
      containers: [
        {
          name: 'a',
          image: 'i',
          command: ['sleep', '30'],
          volumeMounts: [
            { name: 'made', mountPath: `${root}/in-made` },
            { name: 'wrong', mountPath: `${root}/in-wrong` },
          ],
        },
      ],
      volumes: [
        { name: 'made', hostPath: { path: `${root}/made`, type: 'DirectoryOrCreate' } },
        { name: 'wrong', hostPath: { path: `${root}/afile`, type: 'Directory' } },
      ],
    })
    t.worker.sync()
    await until('FailedMount', () =>
      t.events.includes(
        `Warning FailedMount: MountVolume.SetUp failed for volume "wrong" : hostPath type check failed: ${root}/afile is not a directory`,
      ),
    )
    assert.ok(existsSync(join(root, 'made')))
  })

  it("reports an unbound claim as the kubelet's pod error, containers waiting", async () => {
    const t = setup(
      {
        containers: [
          { name: 'a', image: 'i', command: ['sleep', '30'], volumeMounts: [{ name: 'data', mountPath: '/tmp/data' }] },
        ],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'claim' } }],
      },
      { '/api/v1/namespaces/n/persistentvolumeclaims/claim': { spec: {}, status: { phase: 'Pending' } } },
    )
    t.worker.sync()
    await until('FailedMount', () =>
      t.events.includes(
        'Warning FailedMount: Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: error processing PVC n/claim: PVC is not bound',
      ),
    )
    await until('a status', () => last(t.api))
    assert.deepEqual(last(t.api).containerStatuses[0].state, { waiting: { reason: 'ContainerCreating' } })
  })

  it("says kubelet's 'Unable to attach or mount volumes' once a volume has failed for 2m3s", async (t) => {
    let now = Date.now()
    t.mock.method(Date, 'now', () => now)
    const events = []
    const pod = {
      metadata: { name: 'p', namespace: 'n', uid: 'u' },
      spec: {
        containers: [{ name: 'a', volumeMounts: [{ name: 'config-volume', mountPath: '/x' }] }],
        volumes: [{ name: 'config-volume', configMap: { name: 'missing' } }],
      },
    }
    const volumes = new PodVolumes({
      podDir: mkdtempSync(join(tmpdir(), 'pv-')),
      pod: () => pod,
      client: fakeApi({}),
      allocatable: {},
      event: (type, reason, message) => events.push(`${type} ${reason}: ${message}`),
      log: () => {},
    })
    const first = await volumes.ensure()
    assert.equal(first, now + 500)
    // Asked again before the back-off's end: nothing is tried.
    assert.equal(await volumes.ensure(), first)
    now += 600
    assert.equal(await volumes.ensure(), now + 1000)
    assert.equal(events.length, 2)
    now += 123_000
    await volumes.ensure()
    assert.equal(
      events.at(-1),
      'Warning FailedMount: Unable to attach or mount volumes: unmounted volumes=[config-volume], unattached volumes=[], failed to process volumes=[]: context deadline exceeded',
    )
    volumes.stop()
  })

  it('unmounts a memory emptyDir once the pod has finished', {
    skip: process.getuid() !== 0 && 'needs root to mount a tmpfs',
  }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnt-'))
    const t = setup({
      restartPolicy: 'Never',
      containers: [{ name: 'a', image: 'i', command: ['true'], volumeMounts: [{ name: 'm', mountPath: `${root}/m` }] }],
      volumes: [{ name: 'm', emptyDir: { medium: 'Memory' } }],
    })
    t.worker.sync()
    await until('Succeeded', () => last(t.api)?.phase === 'Succeeded')
    const dir = join(t.worker.dir, 'volumes', 'kubernetes.io~empty-dir', 'm')
    await until('the tmpfs unmounted', () => statSync(dir).dev === statSync(join(dir, '..')).dev)
  })

  it('keeps the pod’s volume files (its Secrets) from the host’s other users', async () => {
    // A pod directory others may enter, as under a --data-dir made with the usual umask.
    const podDir = mkdtempSync(join(tmpdir(), 'pv-'))
    chmodSync(podDir, 0o755)
    const pod = {
      metadata: { name: 'p', namespace: 'n', uid: 'u' },
      spec: {
        containers: [{ name: 'a', volumeMounts: [{ name: 's', mountPath: '/x' }] }],
        volumes: [{ name: 's', secret: { secretName: 'sec' } }],
      },
    }
    const volumes = new PodVolumes({
      podDir,
      pod: () => pod,
      client: fakeApi({ '/api/v1/namespaces/n/secrets/sec': { data: { key: b64('hunter2') } } }),
      allocatable: {},
      event: () => {},
      log: () => {},
    })
    assert.equal(await volumes.ensure(), null)
    volumes.stop()
    const file = join(podDir, 'volumes', 'kubernetes.io~secret', 's', 'key')
    // The file keeps the Secret's mode (0644 by default); the directory above it is what keeps others out.
    assert.equal(statSync(file).mode & 0o777, 0o644)
    assert.equal(statSync(join(podDir, 'volumes')).mode & 0o777, 0o750)
    if (process.getuid() === 0) {
      const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'cat', file], {
        encoding: 'utf8',
      })
      assert.equal(r.stdout, '')
      assert.match(r.stderr, /Permission denied/)
    }
  })

  const cmPod = (phase) => ({
    metadata: { name: 'p', namespace: 'n', uid: 'u' },
    spec: {
      containers: [{ name: 'a', volumeMounts: [{ name: 'c', mountPath: '/x' }] }],
      volumes: [{ name: 'c', configMap: { name: 'cm' } }],
    },
    status: { phase },
  })
  /** The periodic sync's next passes (mocked setInterval), each given time to read what it reads. */
  const syncPasses = async (t, n) => {
    for (let i = 0; i < n; i++) {
      t.mock.timers.tick(10_000)
      for (let k = 0; k < 10; k++) await new Promise((r) => setImmediate(r))
    }
  }

  it('stops syncing the volumes of a pod that has finished (no more reads of its ConfigMaps)', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] })
    const pod = cmPod('Running')
    const api = fakeApi({ '/api/v1/namespaces/n/configmaps/cm': { data: { k: 'one' } } })
    const volumes = new PodVolumes({
      podDir: mkdtempSync(join(tmpdir(), 'pv-')),
      pod: () => pod,
      client: api,
      allocatable: {},
      event: () => {},
      log: () => {},
    })
    const reads = () => api.calls.filter((c) => c.method === 'GET').length
    assert.equal(await volumes.ensure(), null)
    await syncPasses(t, 1)
    assert.equal(reads(), 2)
    pod.status = { phase: 'Succeeded' }
    await syncPasses(t, 3)
    assert.equal(reads(), 2)
    volumes.stop()
  })

  it('starts no sync once torn down while an adopting agent’s set-up was still reading', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] })
    const podDir = mkdtempSync(join(tmpdir(), 'pv-'))
    // The pod's volumes are on disk: an agent started again sets them up at once, for the runs it adopts.
    mkdirSync(join(podDir, 'volumes'))
    let answer
    let reads = 0
    const client = {
      get: () => {
        reads++
        return reads === 1 ? new Promise((r) => (answer = r)) : Promise.resolve({ data: { k: 'one' } })
      },
    }
    const volumes = new PodVolumes({
      podDir,
      pod: () => cmPod('Running'),
      client,
      allocatable: {},
      event: () => {},
      log: () => {},
    })
    assert.equal(reads, 1)
    // The pod is gone before the read answers.
    volumes.teardown()
    answer({ data: { k: 'one' } })
    await syncPasses(t, 3)
    assert.equal(reads, 1)
  })
})
