// kubectl against our generated OpenAPI: explain prints our field docs, create -f still validates server-side, and
// client-side apply computes from our schemas exactly the patches it computes from its compiled-in Go types.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, KUBEFLARE_URL, TOKEN, api, kubectl, podManifest, uniqueNs } from './helpers.mjs'

/** The v3 document the server serves, to read the descriptions explain should print. */
async function openapiV3() {
  const index = await api('GET', '/openapi/v3')
  const doc = await api('GET', index.body.paths['api/v1'].serverRelativeURL)
  assert.equal(doc.status, 200)
  return doc.body
}
const schemaOf = (doc, name) => doc.components.schemas[`io.k8s.api.core.v1.${name}`]

/**
 * A proxy in front of the server that records PATCH bodies. With `strip`, it serves the v3 document without schemas
 * or PATCH bodies, so kubectl falls back to its compiled-in types: the reference our schemas must agree with.
 */
function patchRecorder(strip) {
  const rec = { last: null, url: '' }
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const body = chunks.length ? Buffer.concat(chunks) : undefined
    if (req.method === 'PATCH') rec.last = JSON.parse(body.toString())
    const headers = { ...req.headers }
    delete headers.host
    // kubectl sends no token over plain http: the proxy speaks for the admin.
    headers.authorization ??= `Bearer ${TOKEN}`
    const r = await fetch(KUBEFLARE_URL + req.url, { method: req.method, headers, body })
    let out = Buffer.from(await r.arrayBuffer())
    const outHeaders = Object.fromEntries(r.headers)
    delete outHeaders['content-length']
    delete outHeaders['content-encoding']
    if (strip && req.url.startsWith('/openapi/v3/api/v1')) {
      const doc = JSON.parse(out.toString())
      doc.components.schemas = {}
      for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) delete op.requestBody
      out = Buffer.from(JSON.stringify(doc))
    }
    res.writeHead(r.status, outHeaders)
    res.end(out)
  })
  rec.start = () =>
    new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((rec.url = `http://127.0.0.1:${server.address().port}`))),
    )
  rec.stop = () => new Promise((resolve) => server.close(resolve))
  return rec
}

const sorted = (x) =>
  Array.isArray(x)
    ? x.map(sorted)
    : x && typeof x === 'object'
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, sorted(x[k])]),
        )
      : x

/** A pod with the list kinds client-side apply merges: keyed containers, ports, env, mounts, volumes (retainKeys). */
function richPod(name) {
  return podManifest(name, {
    labels: { app: name, tier: 'fe' },
    metadata: { annotations: { note: 'a' } },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.25',
          ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }],
          env: [
            { name: 'A', value: '1' },
            { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
          resources: { limits: { cpu: '500m', memory: '128Mi' } },
          livenessProbe: { httpGet: { path: '/', port: 'http' } },
        },
        { name: 'side', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'k', operator: 'Exists' }],
      nodeSelector: { disk: 'ssd' },
    },
  })
}

function service(name) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: { app: name } },
    spec: {
      selector: { app: 'web', tier: 'fe' },
      ports: [
        { name: 'http', port: 80, targetPort: 8080 },
        { name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' },
      ],
    },
  }
}

const SERVICE_VARIANTS = {
  'service ports and selector': (s) => {
    s.spec.ports = [
      { name: 'http', port: 80, targetPort: 9090 },
      { name: 'metrics', port: 9100 },
    ]
    s.spec.selector = { app: 'web' }
  },
}

const POD_VARIANTS = {
  image: (p) => (p.spec.containers[0].image = 'nginx:1.27'),
  'env, ports and mounts': (p) => {
    const web = p.spec.containers[0]
    web.env = [
      { name: 'C', value: '3' },
      { name: 'A', value: '2' },
    ]
    web.ports = [{ containerPort: 80, name: 'http' }]
    web.volumeMounts.push({ name: 'cfg', mountPath: '/cfg' })
  },
  'drop a container': (p) => p.spec.containers.splice(1, 1),
  'reorder containers': (p) => p.spec.containers.reverse(),
  'volume source': (p) => (p.spec.volumes = [{ name: 'data', hostPath: { path: '/tmp' } }]),
  'labels, tolerations, nodeSelector, resources': (p) => {
    delete p.metadata.labels.tier
    p.metadata.labels.new = 'x'
    p.spec.tolerations = [{ key: 'z', operator: 'Equal', value: 'v' }]
    p.spec.nodeSelector = { disk: 'hdd' }
    p.spec.containers[0].resources = { limits: { cpu: '1' } }
  },
}

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v} with the generated OpenAPI`, () => {
    const ns = uniqueNs(`oa${v.replace('.', '')}`)
    const k = (args, opts) => kubectl(v, args, opts)
    let doc

    before(async () => {
      doc = await openapiV3()
      const r = await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
      assert.equal(r.status, 201, r.text)
    })
    after(async () => {
      await api('DELETE', `/api/v1/namespaces/${ns}`)
    })

    it('explain pods.spec.containers prints our field docs', async () => {
      const { stdout } = await k(['explain', 'pods.spec.containers'])
      const container = schemaOf(doc, 'Container')
      assert.match(stdout, /^KIND:\s+Pod$/m)
      assert.match(stdout, /^VERSION:\s+v1$/m)
      assert.match(stdout, /^FIELD: containers <\[\]Container>$/m)
      assert.ok(stdout.includes(schemaOf(doc, 'PodSpec').properties.containers.description), stdout)
      assert.match(stdout, /^\s+name\t<string> -required-$/m)
      assert.match(stdout, /^\s+ports\t<\[\]ContainerPort>$/m)
      assert.match(stdout, /^\s+resources\t<ResourceRequirements>$/m)
      for (const field of ['name', 'image', 'ports', 'env']) {
        assert.ok(stdout.includes(container.properties[field].description), `${field} description missing:\n${stdout}`)
      }
      assert.doesNotMatch(stdout, /<no description>/)
    })

    it('explain prints kube type names for IntOrString and Quantity', async () => {
      const port = await k(['explain', 'pods.spec.containers.livenessProbe.httpGet'])
      assert.match(port.stdout, /^\s+port\t<IntOrString> -required-$/m)
      const limits = await k(['explain', 'pods.spec.containers.resources.limits'])
      assert.match(limits.stdout, /^FIELD: limits <map\[string\]Quantity>$/m)
    })

    it('explain namespace prints our field docs', async () => {
      const { stdout } = await k(['explain', 'namespace'])
      assert.match(stdout, /^KIND:\s+Namespace$/m)
      assert.ok(stdout.includes(schemaOf(doc, 'Namespace').description), stdout)
      for (const field of ['apiVersion', 'kind', 'metadata', 'spec', 'status'])
        assert.match(stdout, new RegExp(`^\\s+${field}\\t<`, 'm'))
      assert.doesNotMatch(stdout, /<no description>/)
    })

    it('explain svc.spec prints our field docs (once services are served)', async (t) => {
      if (!schemaOf(doc, 'Service')) return t.skip('no Service kind in the resource table yet')
      const { stdout } = await k(['explain', 'svc.spec'])
      assert.match(stdout, /^KIND:\s+Service$/m)
      assert.match(stdout, /^FIELD: spec <ServiceSpec>$/m)
      assert.ok(stdout.includes(schemaOf(doc, 'Service').properties.spec.description), stdout)
      assert.match(stdout, /^\s+ports\t<\[\]ServicePort>$/m)
    })

    it('create -f still validates on the server (fieldValidation=Strict)', async () => {
      const bad = podManifest('bad', { spec: { foo: 'bar' } })
      const r = await k(['create', '-n', ns, '-f', '-'], { input: toYaml(bad), allowFail: true })
      assert.notEqual(r.code, 0, r.stdout)
      assert.match(r.stderr, /strict decoding error: unknown field "spec\.foo"/)
    })

    it('apply -f changes one container of two without warnings, and the other survives', async () => {
      const pod = podManifest('two', {
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] },
            { name: 'side', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] },
          ],
        },
      })
      const created = await k(['apply', '-n', ns, '-f', '-'], { input: toYaml(pod) })
      assert.match(created.stdout, /^pod\/two created$/m)
      pod.spec.containers[0].image = 'nginx:1.27'
      const changed = await k(['apply', '-n', ns, '-f', '-'], { input: toYaml(pod) })
      assert.match(changed.stdout, /^pod\/two configured$/m)
      assert.equal(changed.stderr, '', 'apply printed warnings')
      const live = await api('GET', `/api/v1/namespaces/${ns}/pods/two`)
      assert.deepEqual(
        live.body.spec.containers.map((c) => `${c.name}=${c.image}`),
        ['web=nginx:1.27', 'side=busybox:1.36'],
      )
      const again = await k(['apply', '-n', ns, '-f', '-'], { input: toYaml(pod) })
      assert.match(again.stdout, /^pod\/two unchanged$/m)
      assert.equal(again.stderr, '')
    })

    // kubectl 1.29+ compute client-side apply patches from the v3 schemas when the PATCH operation accepts
    // strategic-merge-patch (1.33 fails this block if a merge key is dropped); 1.27 still uses its compiled-in types.
    describe('apply computes the same patches from our schemas as from compiled-in types', () => {
      const ours = patchRecorder(false)
      const reference = patchRecorder(true)
      const cases = [{ kind: 'Pod', make: () => richPod('rich'), variants: POD_VARIANTS }]
      before(async () => {
        await ours.start()
        await reference.start()
        if (schemaOf(doc, 'Service'))
          cases.push({ kind: 'Service', make: () => service('rich'), variants: SERVICE_VARIANTS })
        for (const c of cases) await k(['apply', '-n', ns, '-f', '-'], { input: toYaml(c.make()) })
      })
      after(async () => {
        await ours.stop()
        await reference.stop()
      })

      const variants = [
        ...Object.entries(POD_VARIANTS).map(([name, change]) => ({ kind: 'Pod', name, change })),
        ...Object.entries(SERVICE_VARIANTS).map(([name, change]) => ({ kind: 'Service', name, change })),
      ]
      for (const { kind, name, change } of variants) {
        it(name, async (t) => {
          const c = cases.find((x) => x.kind === kind)
          if (!c) return t.skip(`no ${kind} kind in the resource table yet`)
          const manifest = c.make()
          change(manifest)
          // --dry-run=server: the live object (and its last-applied annotation) stays the base for every variant.
          const args = ['apply', '-n', ns, '--dry-run=server', '-f', '-']
          ours.last = reference.last = null
          const a = await k([`--server=${ours.url}`, ...args], { input: toYaml(manifest), allowFail: true })
          await k([`--server=${reference.url}`, ...args], { input: toYaml(manifest), allowFail: true })
          assert.doesNotMatch(a.stderr, /warning/i)
          assert.ok(ours.last && reference.last, `no PATCH recorded:\n${a.stderr}`)
          assert.deepEqual(sorted(ours.last), sorted(reference.last))
        })
      }
    })
  })
}
