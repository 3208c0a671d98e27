// A container's environment and command as the kubelet makes them: $(VAR) expansion, fieldRef, resourceFieldRef,
// config map and secret references, per-image defaults.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  apiServiceEnv,
  ConfigError,
  containerCommand,
  containerEnv,
  expand,
  quantity,
  untagged,
} from '../../agent/pod-env.ts'
import { KubeError } from '../../agent/kube-client.ts'

const pod = {
  metadata: { name: 'web', namespace: 'team', uid: 'u-1', labels: { app: 'x' } },
  spec: { nodeName: 'edge-1', serviceAccountName: 'default' },
}

/** An API that holds one config map and one secret; anything else is kube's 404. */
const client = {
  async get(path) {
    if (path === '/api/v1/namespaces/team/configmaps/cfg') return { data: { color: 'blue', size: 'L' } }
    if (path === '/api/v1/namespaces/team/secrets/pw')
      return { data: { password: Buffer.from('s3cret').toString('base64') } }
    throw new KubeError(404, { kind: 'Status', code: 404, message: 'not found' }, '')
  },
}
const ctx = { client, hostIP: '192.0.2.7', allocatable: { cpu: '4', memory: '8Gi' }, base: { PATH: '/bin' } }

describe('expand', () => {
  const vars = { A: 'a', B: 'b' }
  const cases = [
    ['$(A)-$(B)', 'a-b'],
    ['$(MISSING)', '$(MISSING)'],
    ['$$(A)', '$(A)'],
    ['$A', '$A'],
    ['$(A', '$(A'],
    ['trailing $', 'trailing $'],
    ['$$$(A)', '$a'],
  ]
  for (const [input, want] of cases)
    it(`${input} → ${want}`, () =>
      assert.equal(
        expand(input, (n) => vars[n]),
        want,
      ))
})

describe('quantity', () => {
  it('reads kube quantities', () => {
    assert.equal(quantity('500m'), 0.5)
    assert.equal(quantity('1Gi'), 2 ** 30)
    assert.equal(quantity('2k'), 2000)
    assert.equal(quantity('1e3'), 1000)
    assert.throws(() => quantity('lots'), ConfigError)
  })
})

describe('containerEnv', () => {
  it('resolves env in order with references to earlier variables', async () => {
    const env = await containerEnv(
      pod,
      {
        name: 'main',
        resources: { limits: { memory: '1Gi' } },
        envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }],
        env: [
          { name: 'NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'GREETING', value: 'hello $(NAME) in $(CFG_color)' },
          { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
          { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
          { name: 'PW', valueFrom: { secretKeyRef: { name: 'pw', key: 'password' } } },
          { name: 'OPT', valueFrom: { configMapKeyRef: { name: 'absent', key: 'k', optional: true } } },
        ],
      },
      ctx,
    )
    assert.deepEqual(env, {
      PATH: '/bin',
      CFG_color: 'blue',
      CFG_size: 'L',
      NAME: 'web',
      GREETING: 'hello web in blue',
      IP: '192.0.2.7',
      APP: 'x',
      MEM: '1024',
      CPU: '4',
      PW: 's3cret',
    })
  })

  it('gives status.podIP the pod’s own address when it has one (--pod-network bridge), hostIP the node’s', async () => {
    const c = {
      name: 'main',
      env: [
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'POD_IPS', valueFrom: { fieldRef: { fieldPath: 'status.podIPs' } } },
        { name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
      ],
    }
    const env = await containerEnv(pod, c, { ...ctx, podIP: '10.244.0.5' })
    assert.deepEqual([env.POD_IP, env.POD_IPS, env.HOST_IP], ['10.244.0.5', '10.244.0.5', '192.0.2.7'])
  })

  it('names a missing config map or key as the kubelet does', async () => {
    const missing = { name: 'm', env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'nope', key: 'k' } } }] }
    await assert.rejects(containerEnv(pod, missing, ctx), new ConfigError('configmap "nope" not found'))
    const badKey = { name: 'm', env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }] }
    await assert.rejects(containerEnv(pod, badKey, ctx), new ConfigError("couldn't find key k in ConfigMap team/cfg"))
  })
})

describe('the kubernetes Service variables (the API server the agent uses)', () => {
  it("are kubelet's names over the kubeconfig server's host and port", () => {
    assert.deepEqual(apiServiceEnv('https://127.0.0.1:8443'), {
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: '8443',
      KUBERNETES_SERVICE_PORT_HTTPS: '8443',
      KUBERNETES_PORT: 'tcp://127.0.0.1:8443',
      KUBERNETES_PORT_8443_TCP: 'tcp://127.0.0.1:8443',
      KUBERNETES_PORT_8443_TCP_PROTO: 'tcp',
      KUBERNETES_PORT_8443_TCP_PORT: '8443',
      KUBERNETES_PORT_8443_TCP_ADDR: '127.0.0.1',
    })
  })

  it('take 443 for a URL without a port, and an IPv6 host bare (bracketed in the tcp:// addresses)', () => {
    const edge = apiServiceEnv('https://kube.example.workers.dev')
    assert.equal(edge.KUBERNETES_SERVICE_HOST, 'kube.example.workers.dev')
    assert.equal(edge.KUBERNETES_SERVICE_PORT, '443')
    assert.equal(edge.KUBERNETES_PORT_443_TCP, 'tcp://kube.example.workers.dev:443')
    const v6 = apiServiceEnv('https://[::1]:6443')
    assert.equal(v6.KUBERNETES_SERVICE_HOST, '::1')
    assert.equal(v6.KUBERNETES_PORT, 'tcp://[::1]:6443')
    assert.equal(v6.KUBERNETES_PORT_6443_TCP_ADDR, '::1')
    assert.deepEqual(apiServiceEnv('not a url'), {})
  })

  it("come after the container's own, which win, and $(VAR) sees them", async () => {
    const env = await containerEnv(
      pod,
      {
        name: 'main',
        env: [
          { name: 'API', value: 'https://$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)' },
          { name: 'KUBERNETES_SERVICE_PORT', value: '1' },
        ],
      },
      { ...ctx, apiServer: 'https://192.0.2.1:6443' },
    )
    assert.equal(env.API, 'https://192.0.2.1:6443')
    assert.equal(env.KUBERNETES_SERVICE_PORT, '1')
    assert.equal(env.KUBERNETES_SERVICE_HOST, '192.0.2.1')
    assert.deepEqual(Object.keys(env).slice(0, 3), ['PATH', 'API', 'KUBERNETES_SERVICE_PORT'])
  })
})

describe('containerCommand', () => {
  const defaults = new Map([['nginx', ['nginx', '-g', 'daemon off;']]])
  it('runs command + args, expanded', () => {
    assert.deepEqual(containerCommand({ command: ['echo', '$(A)'], args: ['$(B)'] }, { A: '1', B: '2' }, defaults), [
      'echo',
      '1',
      '2',
    ])
  })
  it("uses the image's default (any tag), then args alone", () => {
    assert.deepEqual(containerCommand({ image: 'nginx:1.25', args: ['-V'] }, {}, defaults), [
      'nginx',
      '-g',
      'daemon off;',
      '-V',
    ])
    assert.deepEqual(containerCommand({ image: 'busybox', args: ['sleep', '1'] }, {}, defaults), ['sleep', '1'])
  })
  it('refuses a container with nothing to run', () => {
    assert.throws(() => containerCommand({ name: 'c', image: 'redis:7' }, {}, defaults), /--image-default redis=/)
  })
  it('strips tags and digests, not registry ports', () => {
    assert.equal(untagged('nginx:1.25'), 'nginx')
    assert.equal(untagged('registry:5000/app'), 'registry:5000/app')
    assert.equal(untagged('registry:5000/app:v1@sha256:abc'), 'registry:5000/app')
  })
})
