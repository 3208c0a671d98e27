// ServiceAccount admission end to end, with kubectl 1.27 and 1.33: `kubectl run` right after `kubectl create
// namespace` is admitted (the namespace's default ServiceAccount is never missing), a pod naming a ServiceAccount that
// does not exist gets kube's Forbidden word for word (by its name, or by its generateName prefix through
// `kubectl create`), and is admitted once the ServiceAccount exists.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, kubectl, podManifest, uniqueNs } from './helpers.mjs'

const namespaces = []

after(async () => {
  for (const ns of namespaces) await kubectl('1.33', ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
})

const refusal = (ns, name, sa) =>
  `pods "${name}" is forbidden: error looking up service account ${ns}/${sa}: serviceaccount "${sa}" not found\n`

describe('ServiceAccount admission', () => {
  for (const v of KUBECTL_VERSIONS) {
    it(`kubectl ${v}: a new namespace takes a pod at once; a missing ServiceAccount is refused as kube refuses it`, async () => {
      const ns = uniqueNs(`sa-adm-${v.replace('.', '')}`)
      namespaces.push(ns)
      await kubectl(v, ['create', 'namespace', ns])
      const first = await kubectl(v, ['run', 'first', '--image=nginx:1.25', '-n', ns])
      assert.equal(first.stdout, 'pod/first created\n')
      const overrides = JSON.stringify({ apiVersion: 'v1', spec: { serviceAccountName: 'robot' } })
      const run = ['run', 'p', '--image=nginx:1.25', '-n', ns, `--overrides=${overrides}`]
      const refused = await kubectl(v, run, { allowFail: true })
      assert.equal(refused.code, 1)
      assert.equal(refused.stderr, `Error from server (Forbidden): ${refusal(ns, 'p', 'robot')}`)
      // A generated name is not made before admission: the prefix names the pod.
      const generated = podManifest('', { spec: { serviceAccountName: 'robot' } })
      generated.metadata = { generateName: 'web-' }
      const created = await kubectl(v, ['create', '-n', ns, '-f', '-'], {
        input: JSON.stringify(generated),
        allowFail: true,
      })
      assert.equal(created.code, 1)
      assert.equal(
        created.stderr,
        `Error from server (Forbidden): error when creating "STDIN": ${refusal(ns, 'web-', 'robot')}`,
      )
      await kubectl(v, ['create', 'serviceaccount', 'robot', '-n', ns])
      const admitted = await kubectl(v, run)
      assert.equal(admitted.stdout, 'pod/p created\n')
      const sa = await kubectl(v, ['get', 'pod', 'p', '-n', ns, '-o', 'jsonpath={.spec.serviceAccountName}'])
      assert.equal(sa.stdout, 'robot')
    })
  }
})
