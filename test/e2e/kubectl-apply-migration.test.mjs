// Moving an object between client-side and server-side apply with the real kubectl 1.27 and 1.33, as on
// kube-apiserver 1.33: `kubectl apply --server-side` of a changed manifest after `kubectl apply` takes over the fields
// client-side apply set without --force-conflicts (the server's last-applied manager), the server keeps the
// last-applied annotation in step with the manifest (its last-applied updater), kubectl's follow-up requests (an
// apply by kubectl-last-applied of the annotation, a JSON patch merging kubectl-client-side-apply into kubectl's
// managedFields entry, the apply again) leave kubectl the only owner of the manifest's fields, and a later client-side
// apply diffs against the manifest the server-side apply sent.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, api, kubectl, uniqueNs } from './helpers.mjs'

const LAST = 'kubectl.kubernetes.io/last-applied-configuration'
const tmp = mkdtempSync(join(tmpdir(), 'kubeflare-apply-migration-'))
after(() => rmSync(tmp, { recursive: true, force: true }))

let files = 0
function manifestFile(obj) {
  const p = join(tmp, `m${files++}.yaml`)
  writeFileSync(p, toYaml(obj))
  return p
}

function manifest(name, { image = 'nginx:1.25', labels = { app: name, tier: 'web' } } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }] }] },
  }
}

/** JSON with sorted keys and a newline: how kubectl and kube-apiserver write the annotation (Go's json.Encoder). */
function goJson(v) {
  const enc = (x) => {
    if (Array.isArray(x)) return `[${x.map(enc).join(',')}]`
    if (x && typeof x === 'object')
      return `{${Object.keys(x)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${enc(x[k])}`)
        .join(',')}}`
    return JSON.stringify(x)
  }
  return enc(v) + '\n'
}

/** What kubectl sends for a manifest (and the server-side annotation holds): the manifest with its namespace. */
const sent = (m, ns) => ({ ...m, metadata: { ...m.metadata, namespace: ns } })

async function getPod(ns, name) {
  const r = await api('GET', `/api/v1/namespaces/${ns}/pods/${name}`)
  assert.equal(r.status, 200, r.text)
  return r.body
}

/** The managers of the pod's main resource (the simulated kubelet's pods/status entry is not the applier's business). */
const managers = (pod) =>
  pod.metadata.managedFields
    .filter((e) => e.subresource !== 'status')
    .map((e) => `${e.manager}/${e.operation}`)
    .sort()

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}: client-side apply to server-side apply and back`, () => {
    const ns = uniqueNs(`mig${v.replace('.', '')}`)
    const kn = (args, opts) => kubectl(v, [...args, '-n', ns], opts)

    before(async () => {
      const r = await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
      assert.equal(r.status, 201, r.text)
    })
    after(async () => {
      await api('DELETE', `/api/v1/namespaces/${ns}`)
    })

    it('apply, then apply --server-side of a changed manifest: no conflict, the new value, kubectl owns the fields', async () => {
      const m1 = manifest('csa')
      const created = await kn(['apply', '-f', manifestFile(m1)])
      assert.match(created.stdout, /^pod\/csa created$/m)
      assert.deepEqual(managers(await getPod(ns, 'csa')), ['kubectl-client-side-apply/Update'])

      const m2 = manifest('csa', { image: 'nginx:1.26' })
      const r = await kn(['apply', '--server-side', '-f', manifestFile(m2)])
      assert.match(r.stdout, /^pod\/csa serverside-applied$/m)
      assert.equal(r.stderr, '')
      const pod = await getPod(ns, 'csa')
      assert.equal(pod.spec.containers[0].image, 'nginx:1.26')
      assert.equal(pod.metadata.annotations[LAST], goJson(sent(m2, ns)))
      // kubectl moved kubectl-client-side-apply's entry into its own, and gave the annotation an owner of its own.
      assert.deepEqual(managers(pod), ['kubectl-last-applied/Apply', 'kubectl/Apply'])
      const mine = pod.metadata.managedFields.find((e) => e.manager === 'kubectl')
      assert.deepEqual(Object.keys(mine.fieldsV1['f:spec']['f:containers']['k:{"name":"web"}']).sort(), [
        '.',
        'f:image',
        'f:name',
        'f:ports',
      ])
      const lastApplied = pod.metadata.managedFields.find((e) => e.manager === 'kubectl-last-applied')
      // An Apply entry is ToFieldSet of what was applied: the annotations map, a struct field's map, is no member.
      assert.deepEqual(lastApplied.fieldsV1, { 'f:metadata': { 'f:annotations': { [`f:${LAST}`]: {} } } })

      // kubectl now owns the labels alone: one it stops applying goes.
      const m3 = manifest('csa', { image: 'nginx:1.26', labels: { app: 'csa' } })
      await kn(['apply', '--server-side', '-f', manifestFile(m3)])
      const after3 = await getPod(ns, 'csa')
      assert.deepEqual(after3.metadata.labels, { app: 'csa' })
      assert.equal(after3.metadata.annotations[LAST], goJson(sent(m3, ns)))
    })

    it('diff --server-side right after the identical apply --server-side that took over: no differences (exit 0)', async () => {
      await kn(['apply', '-f', manifestFile(manifest('diff'))])
      const file = manifestFile(manifest('diff', { image: 'nginx:1.26' }))
      await kn(['apply', '--server-side', '-f', file])
      // The simulated kubelet is still starting the pod: diff once its status has settled, or the status it writes
      // between diff's read and its dry-run apply shows up as a difference.
      await kn(['wait', '--for=condition=Ready', 'pod/diff', '--timeout=30s'])
      const d = await kn(['diff', '--server-side', '-f', file], { allowFail: true })
      assert.equal(d.code, 0, `kubectl diff exited ${d.code}:\n${d.stdout}\n${d.stderr}`)
    })

    it('back to client-side apply: it diffs against what the server-side apply sent', async () => {
      const m1 = manifest('back')
      await kn(['apply', '-f', manifestFile(m1)])
      const m2 = manifest('back', { image: 'nginx:1.26', labels: { app: 'back', tier: 'web', extra: 'on-top' } })
      await kn(['apply', '--server-side', '-f', manifestFile(m2)])
      assert.equal((await getPod(ns, 'back')).metadata.labels.extra, 'on-top')

      // The annotation says the server-side apply set `extra`, so client-side apply of m1 removes it.
      const r = await kn(['apply', '-f', manifestFile(m1)])
      assert.match(r.stdout, /^pod\/back configured$/m)
      assert.equal(r.stderr, '')
      const pod = await getPod(ns, 'back')
      assert.deepEqual(pod.metadata.labels, { app: 'back', tier: 'web' })
      assert.equal(pod.spec.containers[0].image, 'nginx:1.25')
      const annotation = JSON.parse(pod.metadata.annotations[LAST])
      assert.deepEqual(annotation, { ...sent(m1, ns), metadata: { ...sent(m1, ns).metadata, annotations: {} } })
      assert.match((await kn(['apply', '-f', manifestFile(m1)])).stdout, /^pod\/back unchanged$/m)
    })

    it('server-side apply first, then client-side apply: kubectl warns of the missing annotation and adds it', async () => {
      const m1 = manifest('ssa-first')
      const created = await kn(['apply', '--server-side', '-f', manifestFile(m1)])
      assert.match(created.stdout, /^pod\/ssa-first serverside-applied$/m)
      assert.equal((await getPod(ns, 'ssa-first')).metadata.annotations, undefined)

      const m2 = manifest('ssa-first', { image: 'nginx:1.26' })
      const r = await kn(['apply', '-f', manifestFile(m2)])
      assert.match(r.stdout, /^pod\/ssa-first configured$/m)
      assert.match(
        r.stderr,
        /Warning: resource pods\/ssa-first is missing the kubectl\.kubernetes\.io\/last-applied-configuration annotation/,
      )
      const pod = await getPod(ns, 'ssa-first')
      assert.equal(pod.spec.containers[0].image, 'nginx:1.26')
      assert.deepEqual(managers(pod), ['kubectl-client-side-apply/Update', 'kubectl/Apply'])

      // From now on server-side applies keep that annotation up to date.
      const m3 = manifest('ssa-first', { image: 'nginx:1.27' })
      const again = await kn(['apply', '--server-side', '-f', manifestFile(m3)])
      assert.match(again.stdout, /^pod\/ssa-first serverside-applied$/m)
      const after3 = await getPod(ns, 'ssa-first')
      assert.equal(after3.spec.containers[0].image, 'nginx:1.27')
      assert.equal(after3.metadata.annotations[LAST], goJson(sent(m3, ns)))
    })
  })
}
