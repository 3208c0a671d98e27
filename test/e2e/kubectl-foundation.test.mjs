// kubectl against a real `wrangler dev` server: the basic verbs, for the oldest and newest kubectl we support.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { parse as parseYaml, stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, podManifest, uniqueNs } from './helpers.mjs'

const HEADER = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']
// What a freshly created pod may show: Pending (nothing runs it yet) or, once a simulated kubelet does, Running.
const PHASES = ['Pending', 'Running']
const LIFECYCLE = [
  ['0/1', 'Pending'],
  ['0/1', 'ContainerCreating'],
  ['1/1', 'Running'],
]

function rowFor(table, name, col = 'NAME') {
  const i = table.header.indexOf(col)
  return table.rows.find((r) => r[i] === name)
}
function names(stdout, col = 'NAME') {
  const t = parseTable(stdout)
  const i = t.header.indexOf(col)
  return t.rows.map((r) => r[i])
}

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}`, () => {
    const ns = uniqueNs(`k${v.replace('.', '')}`)
    const ns2 = uniqueNs(`k${v.replace('.', '')}-b`)
    const web = podManifest('web', {
      labels: { app: 'web', tier: 'front' },
      metadata: { annotations: { 'example.com/note': 'hello' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.25',
            command: ['sh', '-c', 'sleep 3600'],
            env: [{ name: 'GREETING', value: 'hi' }],
            ports: [{ containerPort: 80, name: 'http' }],
          },
        ],
      },
    })
    const k = (args, opts) => kubectl(v, args, opts)

    after(async () => {
      // Best effort: the server state lives in a temp dir that run.mjs throws away anyway.
      await k(['delete', 'namespace', ns, ns2, '--wait=false'], { allowFail: true, timeout: 20_000 })
    })

    it('create namespace', async () => {
      const results = []
      for (const name of [ns, ns2]) {
        const r = await k(['create', 'namespace', name], { allowFail: true })
        // If kubectl could not create it, create it over plain JSON so the later steps still test their own verb.
        if (r.code !== 0)
          await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
        results.push([name, r])
      }
      for (const [name, r] of results) {
        assert.equal(r.code, 0, `kubectl create namespace ${name} failed:\n${r.stderr}`)
        assert.match(r.stdout, new RegExp(`^namespace/${name} created$`, 'm'))
      }
    })

    it('create -f - (pod manifest on stdin)', async () => {
      const r = await k(['create', '-n', ns, '-f', '-'], { input: toYaml(web) })
      assert.match(r.stdout, /^pod\/web created$/m)
      // a second pod with other labels (JSON on stdin, -o json: the server's answer to the create itself),
      // and one in the other namespace
      const db = podManifest('db', { labels: { app: 'db' }, image: 'postgres:16' })
      const created = JSON.parse(
        (await k(['create', '-n', ns, '-f', '-', '-o', 'json'], { input: JSON.stringify(db) })).stdout,
      )
      assert.equal(created.metadata.name, 'db')
      assert.equal(created.status?.phase, 'Pending') // nothing has run it yet
      assert.equal(created.status?.qosClass, 'BestEffort')
      assert.equal(created.spec.restartPolicy, 'Always')
      const other = podManifest('other', { labels: { app: 'web' } })
      assert.match(
        (await k(['create', '-n', ns2, '-f', '-'], { input: toYaml(other) })).stdout,
        /^pod\/other created$/m,
      )
    })

    it('create of an existing pod fails with AlreadyExists', async () => {
      const r = await k(['create', '-n', ns, '-f', '-'], { input: toYaml(web), allowFail: true })
      assert.notEqual(r.code, 0)
      assert.match(r.stderr, /Error from server \(AlreadyExists\)/)
      assert.match(r.stderr, /pods "web" already exists/)
    })

    it('create -f of a pod with an unknown field fails (strict field validation)', async () => {
      const bad = podManifest('bad', { spec: { foo: 'bar' } })
      const r = await k(['create', '-n', ns, '-f', '-'], { input: toYaml(bad), allowFail: true })
      assert.notEqual(r.code, 0, `expected failure, got stdout: ${r.stdout}`)
      assert.match(r.stderr, /unknown field "spec\.foo"/)
      const g = await k(['get', 'pod', 'bad', '-n', ns], { allowFail: true })
      assert.notEqual(g.code, 0, 'the rejected pod must not have been stored')
      assert.match(g.stderr, /Error from server \(NotFound\): pods "bad" not found/)
    })

    it('get pods (server-side Table)', async () => {
      const r = await k(['get', 'pods', '-n', ns])
      const t = parseTable(r.stdout)
      assert.deepEqual(t.header, HEADER, `header of:\n${r.stdout}`)
      const row = rowFor(t, 'web')
      assert.ok(row, `no web row in:\n${r.stdout}`)
      // Pending until a (simulated) kubelet runs it, Running after.
      assert.ok(
        LIFECYCLE.some(([ready, st]) => row[1] === ready && row[2] === st),
        `READY/STATUS of: ${row.join(' | ')}`,
      )
      assert.equal(row[3], '0')
      assert.match(row[4], /^\d+(s|m|h|d)/)
      assert.deepEqual(names(r.stdout).sort(), ['db', 'web'])
    })

    it('get pod web (single object as a Table)', async () => {
      const r = await k(['get', 'pod', 'web', '-n', ns])
      const t = parseTable(r.stdout)
      assert.deepEqual(t.header, HEADER)
      assert.deepEqual(names(r.stdout), ['web'])
    })

    let asJson
    it('get pod web -o json: fields round-trip, defaults present', async () => {
      const r = await k(['get', 'pod', 'web', '-n', ns, '-o', 'json'])
      const p = JSON.parse(r.stdout)
      asJson = p
      assert.equal(p.apiVersion, 'v1')
      assert.equal(p.kind, 'Pod')
      assert.equal(p.metadata.name, 'web')
      assert.equal(p.metadata.namespace, ns)
      assert.deepEqual(p.metadata.labels, { app: 'web', tier: 'front' })
      assert.equal(p.metadata.annotations?.['example.com/note'], 'hello')
      assert.match(p.metadata.uid ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      assert.match(p.metadata.resourceVersion ?? '', /^\d+$/)
      assert.match(p.metadata.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      const c = p.spec.containers[0]
      assert.equal(c.name, 'nginx')
      assert.equal(c.image, 'nginx:1.25')
      assert.deepEqual(c.command, ['sh', '-c', 'sleep 3600'])
      assert.deepEqual(c.env, [{ name: 'GREETING', value: 'hi' }])
      assert.equal(c.ports?.[0]?.containerPort, 80)
      assert.equal(c.ports?.[0]?.name, 'http')
      // defaults
      assert.equal(p.spec.restartPolicy, 'Always')
      assert.equal(p.spec.dnsPolicy, 'ClusterFirst')
      assert.equal(c.imagePullPolicy, 'IfNotPresent') // tagged, not :latest
      assert.ok(PHASES.includes(p.status?.phase), `status.phase ${p.status?.phase}`) // Pending on create (checked above)
      assert.equal(p.status?.qosClass, 'BestEffort')
    })

    it('get pod web -o yaml matches -o json', async () => {
      const r = await k(['get', 'pod', 'web', '-n', ns, '-o', 'yaml'])
      assert.match(r.stdout, /^apiVersion: v1$/m)
      assert.match(r.stdout, /^kind: Pod$/m)
      const p = parseYaml(r.stdout)
      assert.equal(p.metadata.name, 'web')
      assert.equal(p.spec.restartPolicy, 'Always')
      assert.equal(p.spec.dnsPolicy, 'ClusterFirst')
      assert.ok(PHASES.includes(p.status?.phase), `status.phase ${p.status?.phase}`)
      assert.equal(p.status.qosClass, 'BestEffort')
      if (asJson) {
        // Same object (a scheduler/kubelet may have moved status, resourceVersion and spec.nodeName in between).
        const stable = (spec) => ({ ...spec, nodeName: undefined })
        assert.equal(p.metadata.uid, asJson.metadata.uid)
        assert.deepEqual(stable(p.spec), stable(asJson.spec))
        assert.deepEqual(p.metadata.labels, asJson.metadata.labels)
        assert.deepEqual(p.metadata.annotations, asJson.metadata.annotations)
      }
    })

    it('get pods -l app=web', async () => {
      const r = await k(['get', 'pods', '-n', ns, '-l', 'app=web'])
      assert.deepEqual(names(r.stdout), ['web'])
      const r2 = await k(['get', 'pods', '-n', ns, '-l', 'app!=web', '-o', 'name'])
      assert.deepEqual(r2.stdout.trim().split('\n'), ['pod/db'])
    })

    it('get pods --field-selector metadata.name=db', async () => {
      const r = await k(['get', 'pods', '-n', ns, '--field-selector', 'metadata.name=db'])
      assert.deepEqual(names(r.stdout), ['db'])
    })

    it('get pods -A (pods from two namespaces)', async () => {
      const r = await k(['get', 'pods', '-A'])
      const t = parseTable(r.stdout)
      assert.deepEqual(t.header, ['NAMESPACE', ...HEADER], `header of:\n${r.stdout}`)
      const seen = t.rows.map((row) => `${row[0]}/${row[1]}`)
      for (const want of [`${ns}/web`, `${ns}/db`, `${ns2}/other`])
        assert.ok(seen.includes(want), `${want} missing from:\n${r.stdout}`)
    })

    it('delete pod web, then get is NotFound', async () => {
      const r = await k(['delete', 'pod', 'web', '-n', ns], { timeout: 90_000 })
      assert.equal(r.code, 0)
      assert.match(r.stdout, /pod "web" deleted/)
      const g = await k(['get', 'pod', 'web', '-n', ns], { allowFail: true })
      assert.notEqual(g.code, 0)
      assert.match(g.stderr, /Error from server \(NotFound\): pods "web" not found/)
      const l = await k(['get', 'pods', '-n', ns, '-o', 'name'])
      assert.deepEqual(l.stdout.trim().split('\n'), ['pod/db'])
    })
  })
}
