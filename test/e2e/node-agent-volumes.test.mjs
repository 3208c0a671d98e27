// Pod volumes on a real node (the agent as system:node:e2e-agent, process runtime): the kube docs' ConfigMap-volume
// pod, a Secret with defaultMode, an emptyDir two containers share, downwardAPI labels, a projected
// serviceAccountToken the container uses against the API, a ConfigMap update reaching the file, a missing ConfigMap's
// FailedMount event and an unbound claim's; kubectl exec sees the files at their mountPaths.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, KUBECONFIG, KUBECTL_DIR, kubectl, TEST_TOKENS, uniqueNs } from './helpers.mjs'
import { kubeconfigFor } from './identity-helpers.mjs'

const node = 'e2e-agent'
const nodeKubeconfig = kubeconfigFor('e2e-agent', TEST_TOKENS.node)
const namespace = uniqueNs('vol')
let agent

/** Mount points the process runtime makes on the host for these pods: those that were not there are removed after. */
const mountPoints = [
  '/etc/config',
  '/etc/creds',
  '/etc/podinfo',
  '/etc/nothing',
  '/data',
  `/tmp/kf-e2e-shared-${namespace}`,
  `/var/run/secrets/tokens-${namespace}`,
  // Its parent, when the host had none (removed only once empty, after the child).
  '/var/run/secrets',
  `/etc/live-${namespace}`,
  `/tmp/app-${namespace}.conf`,
  `/tmp/host-${namespace}`,
]
const existedBefore = new Set(mountPoints.filter((p) => existsSync(p)))
/** The mount points these tests made, once empty (rmdir removes only an empty directory: whatever holds files stays). */
function removeMountPoints() {
  for (const path of mountPoints) {
    if (existedBefore.has(path)) continue
    try {
      if (statSync(path).isDirectory()) rmdirSync(path)
      else if (statSync(path).size === 0) rmSync(path)
    } catch {
      // not there, or not empty
    }
  }
}

const k = (args, opts) => kubectl('1.33', ['-n', namespace, ...args], opts)
const apply = (yaml) => k(['apply', '-f', '-'], { input: yaml })
const getPod = async (name) => (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
const running = (name) =>
  eventually(
    `${name} to run`,
    async () => (await getPod(name)).status?.containerStatuses?.every((c) => c.state.running),
    60_000,
  )
const exec = async (pod, command, container) =>
  (await k(['exec', pod, ...(container ? ['-c', container] : []), '--', 'sh', '-c', command])).stdout
const events = async (pod) =>
  (
    await k([
      'get',
      'events',
      '--field-selector',
      `involvedObject.name=${pod}`,
      '-o',
      'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
    ])
  ).stdout

describe('node agent volumes', () => {
  before(async () => {
    agent = startAgent(node, ['--kubeconfig', nodeKubeconfig])
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await nodeRegisteredReady(node)
  })
  after(async () => {
    // Each step runs even when the server is gone: the agent stops its containers, then their mount points go.
    await api('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined)
    await agent?.stop()
    removeMountPoints()
    await api('DELETE', `/api/v1/nodes/${node}`).catch(() => undefined)
  })

  it("runs the kube docs' ConfigMap-volume pod: the keys are files in /etc/config", async () => {
    await apply(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: special-config
data:
  SPECIAL_LEVEL: very
  SPECIAL_TYPE: charm
---
apiVersion: v1
kind: Pod
metadata:
  name: dapi-test-pod
spec:
  nodeName: ${node}
  containers:
    - name: test-container
      image: registry.k8s.io/busybox
      command: [ "/bin/sh", "-c", "ls /etc/config/" ]
      volumeMounts:
      - name: config-volume
        mountPath: /etc/config
  volumes:
    - name: config-volume
      configMap:
        name: special-config
  restartPolicy: Never
`)
    await eventually('Succeeded', async () => (await getPod('dapi-test-pod')).status?.phase === 'Succeeded', 60_000)
    assert.equal((await k(['logs', 'dapi-test-pod'])).stdout, 'SPECIAL_LEVEL\nSPECIAL_TYPE\n')
  })

  it('mounts a Secret with its defaultMode, an emptyDir two containers share, downwardAPI labels; exec sees them', async () => {
    await apply(`
apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  password: s3cret
---
apiVersion: v1
kind: Pod
metadata:
  name: vols
  labels: { app: web, tier: front }
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
    - name: writer
      image: busybox
      command: [ "sh", "-c", "echo from-writer > /tmp/kf-e2e-shared-${namespace}/f; sleep 3600" ]
      volumeMounts:
      - { name: shared, mountPath: /tmp/kf-e2e-shared-${namespace} }
      - { name: creds, mountPath: /etc/creds }
      - { name: info, mountPath: /etc/podinfo }
    - name: reader
      image: busybox
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: shared, mountPath: /data }
  volumes:
    - name: shared
      emptyDir: {}
    - name: creds
      secret: { secretName: creds, defaultMode: 0400 }
    - name: info
      downwardAPI:
        items:
        - { path: labels, fieldRef: { fieldPath: metadata.labels } }
        - { path: name, fieldRef: { fieldPath: metadata.name } }
`)
    await running('vols')
    assert.equal(await exec('vols', 'cat /etc/creds/password', 'writer'), 's3cret')
    assert.equal(await exec('vols', 'stat -L -c %a /etc/creds/password', 'writer'), '400\n')
    assert.equal(await exec('vols', 'readlink /etc/creds/..data | grep -c "^\\.\\.[0-9_]*\\.[0-9]*$"', 'writer'), '1\n')
    assert.equal(
      await exec('vols', 'cat /etc/podinfo/labels; echo; cat /etc/podinfo/name', 'writer'),
      'app="web"\ntier="front"\nvols',
    )
    await eventually('the shared file', async () => (await exec('vols', 'cat /data/f', 'reader')) === 'from-writer\n')
    // The volume is the containers' own: the host's path does not show it.
    const onHost = await exec('vols', `ls -A /tmp/kf-e2e-shared-${namespace} 2>/dev/null | wc -l`, 'reader')
    assert.equal(onHost.trim(), '0')
  })

  it('hands the container a projected serviceAccountToken it authenticates to the API with', async () => {
    const kubectlBin = join(KUBECTL_DIR, 'kubectl.1.33')
    await apply(`
apiVersion: v1
kind: Pod
metadata:
  name: token-user
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: busybox
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: token, mountPath: /var/run/secrets/tokens-${namespace} }
  volumes:
    - name: token
      projected:
        sources:
        - serviceAccountToken: { path: token, expirationSeconds: 3600 }
        - downwardAPI: { items: [ { path: namespace, fieldRef: { fieldPath: metadata.namespace } } ] }
`)
    await running('token-user')
    const dir = `/var/run/secrets/tokens-${namespace}`
    const who = await exec(
      'token-user',
      `${kubectlBin} --kubeconfig ${KUBECONFIG} --token "$(cat ${dir}/token)" auth whoami -o jsonpath='{.status.userInfo.username} {.status.userInfo.extra.authentication\\.kubernetes\\.io/pod-name}'`,
    )
    assert.equal(who, `system:serviceaccount:${namespace}:default ["token-user"]`)
    assert.equal(await exec('token-user', `cat ${dir}/namespace`), namespace)
  })

  it('writes a ConfigMap update into the mounted file', async () => {
    await apply(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: live
data:
  greeting: one
---
apiVersion: v1
kind: Pod
metadata:
  name: live
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: busybox
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: c, mountPath: /etc/live-${namespace} }
  volumes:
    - { name: c, configMap: { name: live } }
`)
    await running('live')
    assert.equal(await exec('live', `cat /etc/live-${namespace}/greeting`), 'one')
    await k(['patch', 'configmap', 'live', '-p', '{"data":{"greeting":"two"}}'])
    await eventually(
      'the update',
      async () => (await exec('live', `cat /etc/live-${namespace}/greeting`)) === 'two',
      45_000,
    )
  })

  it("mounts a ConfigMap key by subPath and a hostPath, and refuses a hostPath of the wrong type with kube's message", async () => {
    const hostDir = mkdtempSync(join(tmpdir(), 'e2e-hostpath-'))
    writeFileSync(join(hostDir, 'from-host'), 'host data\n')
    await apply(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: app
data:
  app.conf: "debug=true\\n"
---
apiVersion: v1
kind: Pod
metadata:
  name: sub
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: busybox
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: app, mountPath: /tmp/app-${namespace}.conf, subPath: app.conf }
      - { name: host, mountPath: /tmp/host-${namespace}, readOnly: true }
  volumes:
    - { name: app, configMap: { name: app } }
    - { name: host, hostPath: { path: ${hostDir}, type: Directory } }
---
apiVersion: v1
kind: Pod
metadata:
  name: wrong-type
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: busybox
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: host, mountPath: /tmp/wrong-${namespace} }
  volumes:
    - { name: host, hostPath: { path: ${hostDir}/from-host, type: Directory } }
`)
    await running('sub')
    assert.equal(await exec('sub', `cat /tmp/app-${namespace}.conf`), 'debug=true\n')
    assert.equal(await exec('sub', `cat /tmp/host-${namespace}/from-host`), 'host data\n')
    assert.notEqual(
      (await k(['exec', 'sub', '--', 'sh', '-c', `echo x > /tmp/host-${namespace}/new`], { allowFail: true })).code,
      0,
    )
    await eventually('FailedMount', async () =>
      (await events('wrong-type')).includes(
        `FailedMount: MountVolume.SetUp failed for volume "host" : hostPath type check failed: ${hostDir}/from-host is not a directory`,
      ),
    )
  })

  it("reports a missing ConfigMap as kubelet's FailedMount, the container ContainerCreating, and an unbound claim", async () => {
    await apply(`
apiVersion: v1
kind: Pod
metadata:
  name: no-config
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: busybox
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: config-volume, mountPath: /etc/nothing }
  volumes:
    - { name: config-volume, configMap: { name: not-there } }
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: claim
spec:
  accessModes: [ ReadWriteOnce ]
  resources: { requests: { storage: 1Gi } }
---
apiVersion: v1
kind: Pod
metadata:
  name: with-claim
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: busybox
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: data, mountPath: /data }
  volumes:
    - { name: data, persistentVolumeClaim: { claimName: claim } }
`)
    await eventually('FailedMount', async () =>
      (await events('no-config')).includes(
        'FailedMount: MountVolume.SetUp failed for volume "config-volume" : configmap "not-there" not found',
      ),
    )
    const table = (await k(['get', 'pod', 'no-config', '--no-headers'])).stdout
    assert.match(table, /^no-config\s+0\/1\s+ContainerCreating\s+0\s/)
    await eventually('the claim event', async () =>
      (await events('with-claim')).includes(
        `FailedMount: Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: error processing PVC ${namespace}/claim: PVC is not bound`,
      ),
    )
    assert.deepEqual((await getPod('with-claim')).status.containerStatuses[0].state, {
      waiting: { reason: 'ContainerCreating' },
    })
    // Once the ConfigMap exists, the pod starts.
    await k(['create', 'configmap', 'not-there', '--from-literal=k=v'])
    await running('no-config')
    assert.equal(await exec('no-config', 'cat /etc/nothing/k'), 'v')
    assert.equal(agent.output().includes('Error'), false, agent.output())
  })
})

// The same volumes through a real podman (skipped where podman cannot run a container): an agent with --runtime podman
// on a node of its own, the image made from the host's static busybox as test/agent/runtime/podman-runtime.test.mjs
// makes it.
const IMAGE = 'localhost/kubeflare-test-busybox:1'
const podmanDir = mkdtempSync(join(tmpdir(), 'e2e-podman-'))
const podmanEnv = { ...process.env, CONTAINERS_CONF: join(podmanDir, 'containers.conf') }
function podmanUnusable() {
  writeFileSync(
    podmanEnv.CONTAINERS_CONF,
    '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1000:1000"]\n[engine]\nruntime = "runc"\n',
  )
  const podman = (...args) =>
    execFileSync('podman', args, { encoding: 'utf8', stdio: 'pipe', timeout: 120_000, env: podmanEnv })
  try {
    podman('version')
  } catch {
    return 'podman does not answer here'
  }
  try {
    podman('image', 'exists', IMAGE)
  } catch {
    if (!existsSync('/bin/busybox')) return 'no static /bin/busybox to make an image of'
    const fs = join(podmanDir, 'rootfs')
    mkdirSync(join(fs, 'bin'), { recursive: true })
    copyFileSync('/bin/busybox', join(fs, 'bin', 'busybox'))
    for (const c of ['sh', 'cat', 'sleep', 'ls']) symlinkSync('busybox', join(fs, 'bin', c))
    execFileSync('tar', ['-C', fs, '-cf', join(podmanDir, 'rootfs.tar'), '.'])
    podman('import', '--change', 'CMD ["sh"]', join(podmanDir, 'rootfs.tar'), IMAGE)
  }
  return null
}
const noPodman = podmanUnusable()

describe('node agent volumes (podman)', { skip: noPodman ?? false }, () => {
  const podmanNode = 'e2e-podman'
  let podmanAgent
  const ns = uniqueNs('volpod')
  const kp = (args, opts) => kubectl('1.33', ['-n', ns, ...args], opts)
  before(async () => {
    podmanAgent = startAgent(podmanNode, ['--runtime', 'podman'], { env: podmanEnv })
    await api('POST', '/api/v1/namespaces', { metadata: { name: ns } })
    await nodeRegisteredReady(podmanNode)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${ns}`)
    await podmanAgent?.stop()
    await api('DELETE', `/api/v1/nodes/${podmanNode}`)
  })

  it('binds a ConfigMap and a shared emptyDir into the containers; an update reaches the file', async () => {
    await kp(['apply', '-f', '-'], {
      input: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  greeting: one
---
apiVersion: v1
kind: Pod
metadata:
  name: boxed
spec:
  nodeName: ${podmanNode}
  terminationGracePeriodSeconds: 1
  containers:
    - name: a
      image: ${IMAGE}
      imagePullPolicy: Never
      command: [ "sh", "-c", "echo from-a > /shared/f; sleep 3600" ]
      volumeMounts:
      - { name: cfg, mountPath: /etc/config }
      - { name: shared, mountPath: /shared }
    - name: b
      image: ${IMAGE}
      imagePullPolicy: Never
      command: [ "sleep", "3600" ]
      volumeMounts:
      - { name: shared, mountPath: /data }
  volumes:
    - { name: cfg, configMap: { name: cfg } }
    - { name: shared, emptyDir: {} }
`,
    })
    const pod = async () => (await api('GET', `/api/v1/namespaces/${ns}/pods/boxed`)).body
    await eventually(
      'boxed to run',
      async () => (await pod()).status?.containerStatuses?.every((c) => c.state.running),
      90_000,
    )
    const ex = async (c, script) => (await kp(['exec', 'boxed', '-c', c, '--', 'sh', '-c', script])).stdout
    assert.equal(await ex('a', 'cat /etc/config/greeting'), 'one')
    await eventually('the shared file', async () => (await ex('b', 'cat /data/f')) === 'from-a\n')
    await kp(['patch', 'configmap', 'cfg', '-p', '{"data":{"greeting":"two"}}'])
    await eventually('the update', async () => (await ex('a', 'cat /etc/config/greeting')) === 'two', 45_000)
    assert.match((await pod()).status.containerStatuses[0].containerID, /^podman:\/\//)
  })
})
