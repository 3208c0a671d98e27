// The configuration and storage kinds with the real clients: kubectl's create configmap/secret generators (generic,
// tls, docker-registry), secrets shown base64 by get -o yaml, a Pod mounting a ConfigMap, apply --prune over the
// default allowlist, the tables kubectl prints, leader election on one Lease by two @kubernetes/client-node
// candidates (client-go's algorithm: exactly one leader, failover once the holder stops renewing), the python
// client, and bad input of each kind.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node'
import { api, kubectl, parseTable, podManifest, uniqueNs } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('cfg')

before(async () => {
  await kubectl(V, ['create', 'namespace', ns])
})
after(async () => {
  await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
})

const getJson = async (args) => JSON.parse((await kubectl(V, ['get', ...args, '-n', ns, '-o', 'json'])).stdout)

describe('kubectl create configmap and secret', () => {
  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version}: configmap --from-literal, secret generic --from-literal; get -o yaml shows base64`, async () => {
      const cm = `lit-${version.replace('.', '')}`
      await kubectl(version, [
        'create',
        'configmap',
        cm,
        '--from-literal=mode=fast',
        '--from-literal=level=3',
        '-n',
        ns,
      ])
      assert.deepEqual((await getJson(['configmap', cm])).data, { level: '3', mode: 'fast' })
      await kubectl(version, ['create', 'secret', 'generic', cm, '--from-literal=password=s3cr3t', '-n', ns])
      const yaml = (await kubectl(version, ['get', 'secret', cm, '-n', ns, '-o', 'yaml'])).stdout
      assert.match(yaml, /^ {2}password: czNjcjN0$/m)
      assert.match(yaml, /^type: Opaque$/m)
      assert.doesNotMatch(yaml, /s3cr3t/)
    })
  }

  it('secret tls from files and docker-registry: the types and keys kube makes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeflare-tls-'))
    const r = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=example.test',
      '-days',
      '1',
      '-keyout',
      join(dir, 'tls.key'),
      '-out',
      join(dir, 'tls.crt'),
    ])
    assert.equal(r.status, 0, String(r.stderr))
    await kubectl(V, [
      'create',
      'secret',
      'tls',
      'site',
      `--cert=${join(dir, 'tls.crt')}`,
      `--key=${join(dir, 'tls.key')}`,
      '-n',
      ns,
    ])
    const tls = await getJson(['secret', 'site'])
    assert.equal(tls.type, 'kubernetes.io/tls')
    assert.equal(Buffer.from(tls.data['tls.crt'], 'base64').toString(), readFileSync(join(dir, 'tls.crt'), 'utf8'))
    await kubectl(V, [
      'create',
      'secret',
      'docker-registry',
      'pull',
      '--docker-server=registry.example.com',
      '--docker-username=u',
      '--docker-password=p',
      '-n',
      ns,
    ])
    const pull = await getJson(['secret', 'pull'])
    assert.equal(pull.type, 'kubernetes.io/dockerconfigjson')
    const config = JSON.parse(Buffer.from(pull.data['.dockerconfigjson'], 'base64').toString())
    assert.equal(config.auths['registry.example.com'].username, 'u')
    const table = parseTable((await kubectl(V, ['get', 'secrets', '-n', ns])).stdout)
    assert.deepEqual(table.header, ['NAME', 'TYPE', 'DATA', 'AGE'])
    assert.deepEqual(table.rows.find((row) => row[0] === 'site')?.slice(1, 3), ['kubernetes.io/tls', '2'])
  })

  it('a Pod manifest mounting a ConfigMap as a volume applies and runs', async () => {
    const manifest = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-config' }, data: { 'index.html': '<h1>hi</h1>' } },
      podManifest('web', {
        spec: {
          containers: [
            { name: 'main', image: 'nginx:1.25', volumeMounts: [{ name: 'html', mountPath: '/usr/share/nginx/html' }] },
          ],
          volumes: [{ name: 'html', configMap: { name: 'web-config' } }],
        },
      }),
    ]
    const out = await kubectl(V, ['apply', '-n', ns, '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifest }),
    })
    assert.match(out.stdout, /configmap\/web-config created/)
    assert.match(out.stdout, /pod\/web created/)
    await kubectl(V, ['wait', '-n', ns, '--for=condition=Ready', 'pod/web', '--timeout=30s'])
    const table = parseTable((await kubectl(V, ['get', 'configmaps', '-n', ns])).stdout)
    assert.deepEqual(table.header, ['NAME', 'DATA', 'AGE'])
    assert.ok(
      table.rows.some((r) => r[0] === 'kube-root-ca.crt' && r[1] === '1'),
      'kube-root-ca.crt is published',
    )
  })
})

describe('kubectl apply --prune', () => {
  it('removes what left the manifest, across ConfigMap, Secret, Service and PVC', async () => {
    const labels = { app: 'x' }
    const objects = {
      cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x-cfg', labels }, data: { a: '1' } },
      secret: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x-secret', labels }, stringData: { k: 'v' } },
      svc: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'x-svc', labels },
        spec: { selector: labels, ports: [{ port: 80 }] },
      },
      pvc: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'x-data', labels },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    }
    const apply = (items) =>
      kubectl(V, ['apply', '--prune', '-l', 'app=x', '-n', ns, '-f', '-'], {
        input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }),
      })
    const first = await apply(Object.values(objects))
    for (const o of ['configmap/x-cfg', 'secret/x-secret', 'service/x-svc', 'persistentvolumeclaim/x-data'])
      assert.match(first.stdout, new RegExp(`${o} created`))
    const second = await apply([objects.secret, objects.svc])
    assert.match(second.stdout, /configmap\/x-cfg pruned/)
    assert.match(second.stdout, /persistentvolumeclaim\/x-data pruned/)
    const left = await kubectl(V, ['get', 'configmap,secret,service,pvc', '-l', 'app=x', '-n', ns, '-o', 'name'])
    assert.deepEqual(left.stdout.trim().split('\n').sort(), ['secret/x-secret', 'service/x-svc'])
  })

  it('claims stay Pending (no storage is simulated); kubectl get pvc prints kube columns', async () => {
    await kubectl(V, ['apply', '-n', ns, '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'pending' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      }),
    })
    const table = parseTable((await kubectl(V, ['get', 'pvc', 'pending', '-n', ns])).stdout)
    assert.deepEqual(table.header, [
      'NAME',
      'STATUS',
      'VOLUME',
      'CAPACITY',
      'ACCESS MODES',
      'STORAGECLASS',
      'VOLUMEATTRIBUTESCLASS',
      'AGE',
    ])
    assert.equal(table.rows[0][1], 'Pending')
  })
})

/** client-go's leader election (tools/leaderelection) over client-node: get, then create or update the Lease. */
class Candidate {
  constructor(coordination, id, { leaseSeconds = 2, retryMs = 150 } = {}) {
    Object.assign(this, { coordination, id, leaseSeconds, retryMs, leading: false, stopped: false, observed: null })
  }
  static microTime(d = new Date()) {
    return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
  }
  /** tryAcquireOrRenew: true when this candidate holds the lease afterwards. */
  async tryAcquireOrRenew(namespace, name) {
    const now = Candidate.microTime()
    let lease
    try {
      lease = await this.coordination.readNamespacedLease({ name, namespace })
    } catch (e) {
      if (e.code !== 404) throw e
      try {
        await this.coordination.createNamespacedLease({
          namespace,
          body: {
            metadata: { name },
            spec: {
              holderIdentity: this.id,
              leaseDurationSeconds: this.leaseSeconds,
              acquireTime: now,
              renewTime: now,
              leaseTransitions: 0,
            },
          },
        })
        return true
      } catch (err) {
        if (err.code === 409) return false
        throw err
      }
    }
    const spec = lease.spec ?? {}
    // client-go judges expiry by when it observed the record change, on its own clock.
    const key = `${spec.holderIdentity}/${spec.renewTime?.toISOString?.() ?? spec.renewTime}`
    if (this.observed?.key !== key) this.observed = { key, at: Date.now() }
    const held = spec.holderIdentity && spec.holderIdentity !== this.id
    if (held && this.observed.at + (spec.leaseDurationSeconds ?? this.leaseSeconds) * 1000 > Date.now()) return false
    const changing = spec.holderIdentity !== this.id
    const body = {
      ...lease,
      spec: {
        holderIdentity: this.id,
        leaseDurationSeconds: this.leaseSeconds,
        acquireTime: changing ? now : Candidate.microTime(new Date(spec.acquireTime)),
        renewTime: now,
        leaseTransitions: (spec.leaseTransitions ?? 0) + (changing ? 1 : 0),
      },
    }
    try {
      await this.coordination.replaceNamespacedLease({ name, namespace, body })
      return true
    } catch (err) {
      if (err.code === 409) return false
      throw err
    }
  }
  run(namespace, name) {
    const loop = async () => {
      while (!this.stopped) {
        this.leading = await this.tryAcquireOrRenew(namespace, name).catch(() => false)
        await new Promise((r) => setTimeout(r, this.retryMs))
      }
      this.leading = false
    }
    this.done = loop()
    return this
  }
}

describe('leader election on a Lease (client-node, client-go algorithm)', () => {
  it('exactly one leader; the other takes over once the holder stops renewing', async () => {
    const kc = new KubeConfig()
    kc.loadFromFile(process.env.KUBECONFIG)
    const coordination = kc.makeApiClient(CoordinationV1Api)
    const a = new Candidate(coordination, 'candidate-a').run(ns, 'controller-lock')
    const b = new Candidate(coordination, 'candidate-b').run(ns, 'controller-lock')
    const samples = []
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 100))
      samples.push([a.leading, b.leading])
    }
    const settled = samples.slice(5)
    assert.ok(
      settled.every(([x, y]) => x !== y),
      `one leader at a time: ${JSON.stringify(samples)}`,
    )
    const leader = a.leading ? a : b
    const follower = leader === a ? b : a
    const before = await coordination.readNamespacedLease({ name: 'controller-lock', namespace: ns })
    assert.equal(before.spec.holderIdentity, leader.id)
    leader.stopped = true
    await leader.done
    const deadline = Date.now() + 10_000
    while (!follower.leading && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    assert.ok(follower.leading, 'the follower took over')
    const after = await coordination.readNamespacedLease({ name: 'controller-lock', namespace: ns })
    assert.equal(after.spec.holderIdentity, follower.id)
    assert.equal(after.spec.leaseTransitions, before.spec.leaseTransitions + 1)
    follower.stopped = true
    await follower.done
    const table = parseTable((await kubectl(V, ['get', 'leases', '-n', ns])).stdout)
    assert.deepEqual(table.header, ['NAME', 'HOLDER', 'AGE'])
    assert.deepEqual(table.rows[0].slice(0, 2), ['controller-lock', follower.id])
  })
})

describe('python client CoreV1Api', () => {
  it('creates, reads, patches and deletes a ConfigMap and a Secret', () => {
    const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
    const pyNs = uniqueNs('pycfg')
    const r = spawnSync(PYTHON, [join(import.meta.dirname, 'python', 'core_config.py'), pyNs], {
      encoding: 'utf8',
      timeout: 60_000,
      env: process.env,
    })
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`)
    const checks = Object.fromEntries(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .map((c) => [c.check, c]),
    )
    assert.deepEqual(checks.configmap, {
      check: 'configmap',
      created: { mode: 'fast' },
      read: { mode: 'fast' },
      patched: { extra: '1', mode: 'slow' },
    })
    assert.deepEqual(checks.secret, {
      check: 'secret',
      created: { user: 'YWRtaW4=' },
      string_data: null,
      read_user: 'admin',
      patched: ['password', 'user'],
      type: 'Opaque',
    })
    assert.deepEqual(checks.deleted.statuses, [404, 404])
    assert.equal(checks.invalid.status, 422)
    assert.equal(
      checks.invalid.message,
      'Secret "tls" is invalid: [data[tls.crt]: Required value, data[tls.key]: Required value]',
    )
  })
})

describe('bad input, kind by kind', () => {
  const cases = [
    [
      '/api/v1/namespaces/NS/configmaps',
      { metadata: { name: 'bad' }, data: { 'a b': 'x' } },
      422,
      /^ConfigMap "bad" is invalid: data\[a b\]: Invalid value: "a b": a valid config key/,
    ],
    [
      '/api/v1/namespaces/NS/secrets',
      { metadata: { name: 'bad' }, data: { k: 'not base64!' } },
      400,
      /^Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3$/,
    ],
    [
      '/api/v1/namespaces/NS/secrets',
      { metadata: { name: 'bad' }, type: 'kubernetes.io/basic-auth' },
      422,
      /^Secret "bad" is invalid: \[data\[username\]: Required value, data\[password\]: Required value\]$/,
    ],
    [
      '/apis/coordination.k8s.io/v1/namespaces/NS/leases',
      { metadata: { name: 'bad' }, spec: { leaseDurationSeconds: -5 } },
      422,
      /^Lease.coordination.k8s.io "bad" is invalid: spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0$/,
    ],
    [
      '/api/v1/namespaces/NS/persistentvolumeclaims',
      { metadata: { name: 'bad' }, spec: { accessModes: ['ReadWriteOnce'] } },
      422,
      /^PersistentVolumeClaim "bad" is invalid: spec.resources\[storage\]: Required value$/,
    ],
    [
      '/api/v1/persistentvolumes',
      { metadata: { name: 'bad-pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } },
      422,
      /^PersistentVolume "bad-pv" is invalid: spec: Required value: must specify a volume type$/,
    ],
    [
      '/apis/networking.k8s.io/v1/namespaces/NS/ingresses',
      { metadata: { name: 'bad' }, spec: { rules: [{ host: '1.2.3.4' }] } },
      422,
      /^Ingress.networking.k8s.io "bad" is invalid: spec.rules\[0\].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address$/,
    ],
    [
      '/apis/networking.k8s.io/v1/ingressclasses',
      { metadata: { name: 'bad-class' }, spec: { controller: 'nginx' } },
      422,
      /^IngressClass.networking.k8s.io "bad-class" is invalid: spec.controller: Invalid value: "nginx": must be a domain-prefixed path/,
    ],
    [
      '/api/v1/namespaces/NS/configmaps',
      '{"metadata":{"name":"x"},"data":{"a":1}}',
      400,
      /^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string$/,
    ],
  ]
  for (const [path, body, status, message] of cases) {
    it(`${path.replace('NS', 'ns')}: ${status}`, async () => {
      const r = await api(
        'POST',
        path.replace('NS', ns),
        body,
        typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      )
      assert.equal(r.status, status, r.text)
      assert.match(r.body.message, message)
    })
  }
})
