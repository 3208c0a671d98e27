// kubectl replace of an object whose manifest carries resourceVersion "0" (what `kubectl get -o yaml` of a fresh
// object and many generators write): "0" is no precondition, so the replace is unconditional, as kube does it.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, api, kubectl } from './helpers.mjs'

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v} replace with resourceVersion "0"`, () => {
    const name = `replace-${v.replace('.', '')}-${Date.now().toString(36)}`
    const node = (label) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, resourceVersion: '0', labels: { step: label } },
      spec: { taints: [{ key: 'e2e.test/no-pods', effect: 'NoSchedule' }] },
    })
    after(() => api('DELETE', `/api/v1/nodes/${name}`))

    it('replaces a Node unconditionally, with and without --dry-run=server', async () => {
      const created = await api('POST', '/api/v1/nodes', {
        ...node('one'),
        metadata: { name, labels: { step: 'one' } },
      })
      assert.equal(created.status, 201, created.text)
      // Someone else writes first: a real precondition would now be stale; "0" is none.
      await api(
        'PATCH',
        `/api/v1/nodes/${name}`,
        { metadata: { annotations: { touched: 'yes' } } },
        { 'content-type': 'application/merge-patch+json' },
      )
      const dry = await kubectl(v, ['replace', '--dry-run=server', '-f', '-'], { input: toYaml(node('dry')) })
      assert.match(dry.stdout, new RegExp(`node/${name} replaced \\(server dry run\\)`))
      assert.equal((await api('GET', `/api/v1/nodes/${name}`)).body.metadata.labels.step, 'one')
      const real = await kubectl(v, ['replace', '-f', '-'], { input: toYaml(node('two')) })
      assert.match(real.stdout, new RegExp(`node/${name} replaced`))
      assert.equal((await api('GET', `/api/v1/nodes/${name}`)).body.metadata.labels.step, 'two')
    })
  })
}
