// EndpointSlices (discovery.k8s.io/v1) against a real `wrangler dev` server: the controller's slice for a service
// with a selector, `kubectl get endpointslices`, `kubectl describe svc` (1.33 reads the slices by the
// kubernetes.io/service-name label, 1.27 reads the Endpoints), api-resources, and the slice going with its service.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, podManifest, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function eventually(fn, what, ms = 30_000) {
  const until = Date.now() + ms
  let last
  for (;;) {
    last = await fn()
    if (last.ok) return last.value
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(last.value)}`)
    await sleep(250)
  }
}

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}: endpointslices`, () => {
    const ns = uniqueNs(`eps${v.replace('.', '')}`)
    const k = (args, opts) => kubectl(v, args, opts)
    let podIP = ''
    let sliceName = ''

    after(async () => {
      await k(['delete', 'namespace', ns, '--wait=false'], { allowFail: true, timeout: 20_000 })
    })

    it('a service with a selector gets one slice for its running pod', async () => {
      const r = await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
      assert.equal(r.status, 201, r.text)
      const pod = podManifest('web', {
        labels: { app: 'web' },
        spec: { containers: [{ name: 'main', image: 'nginx:1.25', ports: [{ containerPort: 8080 }] }] },
      })
      const created = await api('POST', `/api/v1/namespaces/${ns}/pods`, pod)
      assert.equal(created.status, 201, created.text)
      const svc = await k(['create', 'service', 'clusterip', 'web', '-n', ns, '--tcp=80:8080'])
      assert.equal(svc.stdout.trim(), 'service/web created')
      podIP = await eventually(async () => {
        const p = await api('GET', `/api/v1/namespaces/${ns}/pods/web`)
        const ready = (p.body?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
        return { ok: ready && !!p.body.status.podIP, value: p.body?.status?.podIP }
      }, 'pod web to be ready')
      const slice = await eventually(async () => {
        const path = `${['', 'apis', 'discovery.k8s.io', 'v1'].join('/')}/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb`
        const l = await api('GET', path)
        const s = l.body?.items?.[0]
        return {
          ok: l.body?.items?.length === 1 && s.endpoints?.[0]?.conditions?.ready === true,
          value: l.body?.items?.length === 1 ? s : l.body,
        }
      }, 'the slice of web')
      sliceName = slice.metadata.name
      assert.match(sliceName, /^web-[a-z0-9]{5}$/)
    })

    it('get endpointslices: NAME ADDRESSTYPE PORTS ENDPOINTS AGE', async () => {
      const out = (await k(['get', 'endpointslices', '-n', ns])).stdout
      const t = parseTable(out)
      assert.deepEqual(t.header, ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'])
      assert.equal(t.rows.length, 1, out)
      assert.deepEqual(t.rows[0].slice(0, 4), [sliceName, 'IPv4', '8080', podIP])
      assert.match(t.rows[0][4], /^\d+s$/)
      const json = JSON.parse((await k(['get', 'endpointslices', sliceName, '-n', ns, '-o', 'json'])).stdout)
      assert.equal(json.apiVersion, 'discovery.k8s.io/v1')
      assert.equal(json.metadata.labels['kubernetes.io/service-name'], 'web')
      assert.equal(json.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io')
      assert.deepEqual(
        json.metadata.ownerReferences.map((o) => [o.kind, o.name, o.controller]),
        [['Service', 'web', true]],
      )
      // kubectl create service names the port <port>-<targetPort>; the slice copies the service port name.
      assert.deepEqual(json.ports, [{ name: '80-8080', port: 8080, protocol: 'TCP' }])
      assert.deepEqual(
        json.endpoints.map((e) => [e.addresses, e.conditions, e.targetRef.name]),
        [[[podIP], { ready: true, serving: true, terminating: false }, 'web']],
      )
    })

    it('describe svc shows the endpoints', async () => {
      const { stdout: out, stderr } = await k(['describe', 'svc', 'web', '-n', ns, '-v=6'])
      assert.match(out, new RegExp(`^Endpoints:\\s+${podIP.replace(/\./g, '\\.')}:8080$`, 'm'))
      // 1.33 reads the slices by label (1.27 reads the Endpoints object); both answered 200.
      const read =
        v === '1.27'
          ? `/api/v1/namespaces/${ns}/endpoints/web`
          : `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb`
      assert.ok(
        stderr.split('\n').some((l) => l.includes(read) && /200 OK/.test(l)),
        stderr,
      )
    })

    it('api-resources lists endpointslices in discovery.k8s.io/v1', async () => {
      const out = (await k(['api-resources', '--api-group=discovery.k8s.io'])).stdout
      const t = parseTable(out)
      assert.deepEqual(t.rows, [['endpointslices', 'discovery.k8s.io/v1', 'true', 'EndpointSlice']])
    })

    it('the slice goes with its service', async () => {
      await k(['delete', 'svc', 'web', '-n', ns], { timeout: 90_000 })
      await eventually(async () => {
        const l = await k(['get', 'endpointslices', '-n', ns, '-o', 'name'])
        return { ok: l.stdout.trim() === '', value: l.stdout }
      }, 'the slice to be deleted')
    })
  })
}
