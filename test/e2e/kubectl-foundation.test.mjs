// kubectl against a real `wrangler dev` server: the basic verbs, for the oldest and newest kubectl we support.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { parse as parseYaml, stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, kubectl, parseTable, podManifest, uniqueNs } from './helpers.mjs'

const HEADER = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']

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
      const r = await k(['create', 'namespace', ns])
      assert.match(r.stdout, new RegExp(`^namespace/${ns} created$`, 'm'))
      const r2 = await k(['create', 'namespace', ns2])
      assert.match(r2.stdout, new RegExp(`^namespace/${ns2} created$`, 'm'))
    })

    it('create -f - (pod manifest on stdin)', async () => {
      const r = await k(['create', '-n', ns, '-f', '-'], { input: toYaml(web) })
      assert.match(r.stdout, /^pod\/web created$/m)
      // a second pod with other labels, and one in the other namespace (JSON on stdin this time)
      const db = podManifest('db', { labels: { app: 'db' }, image: 'postgres:16' })
      assert.match((await k(['create', '-n', ns, '-f', '-'], { input: JSON.stringify(db) })).stdout, /^pod\/db created$/m)
      const other = podManifest('other', { labels: { app: 'web' } })
      assert.match((await k(['create', '-n', ns2, '-f', '-'], { input: toYaml(other) })).stdout, /^pod\/other created$/m)
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
      assert.equal(row[1], '0/1')
      assert.equal(row[2], 'Pending')
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
      assert.equal(p.status?.phase, 'Pending')
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
      assert.equal(p.status.phase, 'Pending')
      assert.equal(p.status.qosClass, 'BestEffort')
      if (asJson) {
        assert.equal(p.metadata.uid, asJson.metadata.uid)
        assert.equal(p.metadata.resourceVersion, asJson.metadata.resourceVersion)
        assert.deepEqual(p.spec, asJson.spec)
        assert.deepEqual(p.metadata.labels, asJson.metadata.labels)
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
      for (const want of [`${ns}/web`, `${ns}/db`, `${ns2}/other`]) assert.ok(seen.includes(want), `${want} missing from:\n${r.stdout}`)
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
