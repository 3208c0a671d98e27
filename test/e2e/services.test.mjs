// Services and Endpoints against a real `wrangler dev` server: kubectl's service generators (JSON in 1.27, protobuf
// in 1.33), expose, get/describe/delete, allocation errors and reuse, endpoints following pods; then client-node.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const HEADER = ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']
const CLUSTER_IP = /^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function eventually(fn, what, ms = 20_000) {
  const until = Date.now() + ms
  let last
  for (;;) {
    last = await fn()
    if (last.ok) return last.value
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(last.value)}`)
    await sleep(200)
  }
}
const rowOf = (table, name) => table.rows.find((r) => r[0] === name)
/** client-node hands back class instances; compare their JSON. */
const plain = (v) => JSON.parse(JSON.stringify(v))

// Node ports differ per kubectl version so both runs can request their own.
const NODE_PORT = { 1.27: 30127, 1.33: 30133 }

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}: services`, () => {
    const ns = uniqueNs(`svc${v.replace('.', '')}`)
    const k = (args, opts) => kubectl(v, args, opts)
    const nodePort = NODE_PORT[v]

    after(async () => {
      await k(['delete', 'namespace', ns, '--wait=false'], { allowFail: true, timeout: 20_000 })
    })

    it('create service clusterip|nodeport|loadbalancer|externalname', async () => {
      const r = await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
      assert.equal(r.status, 201, r.text)
      const out = []
      out.push((await k(['create', 'service', 'clusterip', 'web', '-n', ns, '--tcp=80:8080'])).stdout)
      out.push(
        (await k(['create', 'service', 'nodeport', 'np', '-n', ns, '--tcp=80:8080', `--node-port=${nodePort}`])).stdout,
      )
      out.push((await k(['create', 'service', 'loadbalancer', 'lb', '-n', ns, '--tcp=443:8443'])).stdout)
      out.push((await k(['create', 'service', 'externalname', 'ext', '-n', ns, '--external-name=example.com'])).stdout)
      assert.deepEqual(
        out.map((s) => s.trim()),
        ['service/web created', 'service/np created', 'service/lb created', 'service/ext created'],
      )
    })

    it('get svc: the Table kubectl prints, and -o wide adds SELECTOR', async () => {
      const t = parseTable((await k(['get', 'svc', '-n', ns])).stdout)
      assert.deepEqual(t.header, HEADER)
      const web = rowOf(t, 'web')
      assert.equal(web[1], 'ClusterIP')
      assert.match(web[2], CLUSTER_IP)
      assert.deepEqual(web.slice(3, 5), ['<none>', '80/TCP'])
      assert.match(web[5], /^\d+s$/)
      const np = rowOf(t, 'np')
      assert.deepEqual([np[1], np[3], np[4]], ['NodePort', '<none>', `80:${nodePort}/TCP`])
      const lb = rowOf(t, 'lb')
      assert.deepEqual([lb[1], lb[3]], ['LoadBalancer', '<pending>'])
      assert.match(lb[4], /^443:3\d{4}\/TCP$/)
      assert.deepEqual(rowOf(t, 'ext').slice(1, 5), ['ExternalName', '<none>', 'example.com', '<none>'])
      const wide = parseTable((await k(['get', 'svc', '-n', ns, '-o', 'wide'])).stdout)
      assert.deepEqual(wide.header, [...HEADER, 'SELECTOR'])
      assert.equal(rowOf(wide, 'web')[6], 'app=web')
      // Every cluster IP is distinct.
      const ips = t.rows.map((r) => r[2]).filter((ip) => ip !== '<none>')
      assert.equal(new Set(ips).size, ips.length)
    })

    it('get svc -o yaml: kube defaults and allocated values', async () => {
      const svc = JSON.parse((await k(['get', 'svc', 'np', '-n', ns, '-o', 'json'])).stdout)
      assert.match(svc.spec.clusterIP, CLUSTER_IP)
      assert.deepEqual(svc.spec.clusterIPs, [svc.spec.clusterIP])
      assert.deepEqual(svc.spec.ipFamilies, ['IPv4'])
      assert.equal(svc.spec.ipFamilyPolicy, 'SingleStack')
      assert.equal(svc.spec.sessionAffinity, 'None')
      assert.equal(svc.spec.externalTrafficPolicy, 'Cluster')
      assert.equal(svc.spec.internalTrafficPolicy, 'Cluster')
      assert.deepEqual(svc.spec.ports, [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080, nodePort }])
      assert.deepEqual(svc.status, { loadBalancer: {} })
      const lb = JSON.parse((await k(['get', 'svc', 'lb', '-n', ns, '-o', 'json'])).stdout)
      assert.equal(lb.spec.allocateLoadBalancerNodePorts, true)
    })

    it('expose pod: the service selects the pod and Endpoints list its IP once it runs', async () => {
      await k(['run', 'p', '-n', ns, '--image=nginx:1.25', '--port=80'])
      const exposed = await k(['expose', 'pod', 'p', '-n', ns])
      assert.match(exposed.stdout, /^service\/p exposed$/m)
      const svc = JSON.parse((await k(['get', 'svc', 'p', '-n', ns, '-o', 'json'])).stdout)
      assert.deepEqual(svc.spec.selector, { run: 'p' })
      const podIP = await eventually(async () => {
        const p = JSON.parse((await k(['get', 'pod', 'p', '-n', ns, '-o', 'json'])).stdout)
        return { ok: Boolean(p.status.podIP), value: p.status.podIP }
      }, 'the pod IP')
      const row = await eventually(async () => {
        const t = parseTable((await k(['get', 'endpoints', '-n', ns])).stdout)
        const r = rowOf(t, 'p')
        return { ok: r?.[1] === `${podIP}:80`, value: t }
      }, 'endpoints/p')
      assert.deepEqual(row.header, ['NAME', 'ENDPOINTS', 'AGE'])
      const ep = JSON.parse((await k(['get', 'endpoints', 'p', '-n', ns, '-o', 'json'])).stdout)
      assert.equal(ep.subsets[0].addresses[0].targetRef.kind, 'Pod')
      assert.equal(ep.subsets[0].addresses[0].targetRef.name, 'p')
      assert.deepEqual(ep.subsets[0].ports, [{ port: 80, protocol: 'TCP' }])
    })

    it('describe svc', async () => {
      const r = await k(['describe', 'svc', 'np', '-n', ns])
      for (const line of [
        /^Name:\s+np$/m,
        new RegExp(`^Namespace:\\s+${ns}$`, 'm'),
        /^Selector:\s+app=np$/m,
        /^Type:\s+NodePort$/m,
        /^IP Family Policy:\s+SingleStack$/m,
        /^IP Families:\s+IPv4$/m,
        /^IP:\s+10\./m,
        /^Port:\s+80-8080\s+80\/TCP$/m,
        /^TargetPort:\s+8080\/TCP$/m,
        new RegExp(`^NodePort:\\s+80-8080\\s+${nodePort}/TCP$`, 'm'),
        /^Session Affinity:\s+None$/m,
        /^External Traffic Policy:\s+Cluster$/m,
      ]) {
        assert.match(r.stdout, line)
      }
    })

    it('a requested node port that is taken, an IP out of range, an unsupported protocol: 422 with kube messages', async () => {
      const taken = await k(
        ['create', 'service', 'nodeport', 'np2', '-n', ns, '--tcp=80:8080', `--node-port=${nodePort}`],
        { allowFail: true },
      )
      assert.notEqual(taken.code, 0)
      assert.match(
        taken.stderr,
        new RegExp(`spec\\.ports\\[0\\]\\.nodePort: Invalid value: ${nodePort}: provided port is already allocated`),
      )
      const bad = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'bad' },
        spec: { clusterIP: '1.2.3.4', ports: [{ port: 80, protocol: 'HTTP' }] },
      }
      const r = await k(['create', '-n', ns, '-f', '-'], { input: toYaml(bad), allowFail: true })
      assert.notEqual(r.code, 0)
      assert.match(
        r.stderr,
        /spec\.ports\[0\]\.protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"/,
      )
      bad.spec.ports[0].protocol = 'TCP'
      const r2 = await k(['create', '-n', ns, '-f', '-'], { input: toYaml(bad), allowFail: true })
      assert.match(
        r2.stderr,
        /spec\.clusterIPs: Invalid value: \[\]string\{"1\.2\.3\.4"\}: failed to allocate IP 1\.2\.3\.4: the provided IP \(1\.2\.3\.4\) is not in the valid range\. The range of valid IPs is 10\.96\.0\.0\/12/,
      )
    })

    it('patch type NodePort -> ClusterIP drops the node port; cluster IP changes are refused', async () => {
      const before = JSON.parse((await k(['get', 'svc', 'np', '-n', ns, '-o', 'json'])).stdout)
      await k(['patch', 'svc', 'np', '-n', ns, '-p', '{"spec":{"type":"ClusterIP"}}'])
      const after = JSON.parse((await k(['get', 'svc', 'np', '-n', ns, '-o', 'json'])).stdout)
      assert.equal(after.spec.type, 'ClusterIP')
      assert.equal(after.spec.ports[0].nodePort, undefined)
      assert.equal(after.spec.clusterIP, before.spec.clusterIP)
      const moved = await k(['patch', 'svc', 'np', '-n', ns, '-p', '{"spec":{"clusterIP":"10.96.99.99"}}'], {
        allowFail: true,
      })
      assert.notEqual(moved.code, 0)
      assert.match(
        moved.stderr,
        /spec\.clusterIPs\[0\]: Invalid value: \[\]string\{"10\.96\.99\.99"\}: may not change once set/,
      )
      // The node port it gave up is free again.
      const again = await k([
        'create',
        'service',
        'nodeport',
        'np3',
        '-n',
        ns,
        '--tcp=80:8080',
        `--node-port=${nodePort}`,
      ])
      assert.match(again.stdout, /service\/np3 created/)
    })

    it('delete svc frees what it held: a new service can take the same node port at once', async () => {
      const r = await k(['delete', 'svc', 'np3', '-n', ns], { timeout: 90_000 })
      assert.match(r.stdout, /service "np3" deleted/)
      const g = await k(['get', 'svc', 'np3', '-n', ns], { allowFail: true })
      assert.match(g.stderr, /Error from server \(NotFound\): services "np3" not found/)
      const again = await k([
        'create',
        'service',
        'nodeport',
        'np4',
        '-n',
        ns,
        '--tcp=80:8080',
        `--node-port=${nodePort}`,
      ])
      assert.match(again.stdout, /service\/np4 created/)
      await k(['delete', 'svc', 'np4', 'web', '-n', ns], { timeout: 90_000 })
      const ep = await eventually(async () => {
        const l = await k(['get', 'endpoints', '-n', ns, '-o', 'name'])
        return { ok: !l.stdout.includes('endpoints/web'), value: l.stdout }
      }, 'endpoints/web to go with its service')
      assert.ok(ep.includes('endpoints/p'))
    })

    it('the kubernetes service in default', async () => {
      const t = parseTable((await k(['get', 'svc', 'kubernetes', '-n', 'default'])).stdout)
      assert.deepEqual(rowOf(t, 'kubernetes').slice(1, 5), ['ClusterIP', '10.96.0.1', '<none>', '443/TCP'])
    })
  })
}

describe('@kubernetes/client-node CoreV1Api: services and endpoints', () => {
  const kc = new KubeConfig()
  kc.loadFromFile(process.env.KUBECONFIG)
  const core = kc.makeApiClient(CoreV1Api)
  const namespace = uniqueNs('cnsvc')

  after(async () => {
    await core.deleteNamespace({ name: namespace }).catch(() => {})
  })

  it('creates, reads, lists, patches status, reads endpoints and deletes a service', async () => {
    await core.createNamespace({ body: { metadata: { name: namespace } } })
    const created = await core.createNamespacedService({
      namespace,
      body: {
        metadata: { name: 'api' },
        spec: {
          type: 'LoadBalancer',
          selector: { app: 'api' },
          ports: [{ name: 'http', port: 80, targetPort: 'http' }],
        },
      },
    })
    assert.match(created.spec?.clusterIP ?? '', CLUSTER_IP)
    assert.ok((created.spec?.ports?.[0]?.nodePort ?? 0) >= 30000)
    assert.equal(created.spec?.allocateLoadBalancerNodePorts, true)
    const read = await core.readNamespacedService({ name: 'api', namespace })
    assert.equal(read.metadata?.uid, created.metadata?.uid)
    const all = await core.listServiceForAllNamespaces({ fieldSelector: `metadata.namespace=${namespace}` })
    assert.deepEqual(
      all.items.map((s) => s.metadata?.name),
      ['api'],
    )
    const patched = await core.patchNamespacedServiceStatus(
      { name: 'api', namespace, body: { status: { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )
    assert.deepEqual(plain(patched.status?.loadBalancer?.ingress), [{ ip: '203.0.113.10', ipMode: 'VIP' }])
    const status = await core.readNamespacedServiceStatus({ name: 'api', namespace })
    assert.equal(status.status?.loadBalancer?.ingress?.[0]?.ip, '203.0.113.10')
    const ep = await eventually(async () => {
      try {
        return { ok: true, value: await core.readNamespacedEndpoints({ name: 'api', namespace }) }
      } catch (e) {
        return { ok: false, value: String(e) }
      }
    }, 'endpoints/api')
    assert.equal(ep.metadata?.name, 'api')
    assert.equal(ep.subsets, undefined)
    await core.deleteNamespacedService({ name: 'api', namespace })
    const list = await core.listNamespacedService({ namespace })
    assert.deepEqual(list.items, [])
  })

  it('writes Endpoints by hand for a service without a selector', async () => {
    await core.createNamespacedService({
      namespace,
      body: { metadata: { name: 'db' }, spec: { ports: [{ port: 5432 }] } },
    })
    await core.createNamespacedEndpoints({
      namespace,
      body: { metadata: { name: 'db' }, subsets: [{ addresses: [{ ip: '192.0.2.5' }], ports: [{ port: 5432 }] }] },
    })
    const ep = await core.readNamespacedEndpoints({ name: 'db', namespace })
    assert.deepEqual(plain(ep.subsets?.[0]?.ports), [{ port: 5432, protocol: 'TCP' }])
    const list = await core.listEndpointsForAllNamespaces({ fieldSelector: `metadata.namespace=${namespace}` })
    assert.ok(list.items.some((e) => e.metadata?.name === 'db'))
  })
})
