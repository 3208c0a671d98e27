// The cluster object registers the virtual nodes of VIRTUAL_NODES it has not registered before, each time it starts
// (so a larger count given later adds nodes to existing state), and never registers one twice: a virtual node
// someone deleted stays deleted when the object starts again.
import { env } from 'cloudflare:workers'
import { evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { req } from '../helpers'

const names = async () =>
  ((await req('GET', '/api/v1/nodes')).json.items as { metadata: { name: string } }[]).map((n) => n.metadata.name)

describe('virtual node registration', () => {
  it('registers each configured node once: a deleted one stays deleted across a restart', async () => {
    expect(await names()).toEqual(expect.arrayContaining(['node-1', 'node-2', 'node-3']))
    expect((await req('DELETE', '/api/v1/nodes/node-2')).status).toBe(200)
    await evictDurableObject(env.CLUSTER.getByName('cluster'))
    const after = await names()
    expect(after).toContain('node-1')
    expect(after).toContain('node-3')
    expect(after).not.toContain('node-2')
  })

  it('registers at start the configured nodes it has no record of (a count raised since the state was made)', async () => {
    expect((await req('DELETE', '/api/v1/nodes/node-3')).status).toBe(200)
    const cluster = env.CLUSTER.getByName('cluster')
    // As if node-3 had been added to VIRTUAL_NODES after the state was made: the record does not name it.
    await runInDurableObject(cluster, (_o, state) => {
      const row = state.storage.sql
        .exec<{ value: string }>("SELECT value FROM state WHERE key = 'virtual_nodes_registered'")
        .one()
      const names = (JSON.parse(row.value) as string[]).filter((n) => n !== 'node-3')
      state.storage.sql.exec("UPDATE state SET value = ? WHERE key = 'virtual_nodes_registered'", JSON.stringify(names))
    })
    await evictDurableObject(cluster)
    expect(await names()).toContain('node-3')
  })

  it('system namespaces are kube-apiserver’s and virtual nodes the kubelet’s in managedFields, as in kube', async () => {
    const entries = (o: any) => (o.metadata.managedFields ?? []).map((m: any) => `${m.manager}/${m.operation}`)
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const got = (await req('GET', `/api/v1/namespaces/${ns}`)).json
      expect(entries(got), ns).toEqual(['kube-apiserver/Update'])
      // The defaulted metadata.name label is the only field the creator sets.
      expect(got.metadata.managedFields[0].fieldsV1).toEqual({
        'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } },
      })
    }
    const node = (await req('GET', '/api/v1/nodes/node-1')).json
    expect(entries(node)).toContain('kubelet/Update')
  })
})
