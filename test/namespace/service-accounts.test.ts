// kube's serviceaccounts controller: every namespace gets a `default` ServiceAccount, and gets it back after a delete.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, waitFor } from '../helpers'

describe('the default ServiceAccount', () => {
  it('exists in a new namespace and in the system ones', async () => {
    const ns = await makeNamespace('sa')
    const sa = await waitFor(`${ns}/default`, async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)
      return g.status === 200 ? g.json : undefined
    })
    expect(sa).toMatchObject({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'default', namespace: ns } })
    for (const system of ['default', 'kube-system']) {
      await waitFor(
        `${system}/default`,
        async () => (await req('GET', `/api/v1/namespaces/${system}/serviceaccounts/default`)).status === 200,
      )
    }
  })

  it('comes back after it is deleted', async () => {
    const ns = await makeNamespace('sa')
    const first = await waitFor(async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)
      return g.status === 200 ? g.json : undefined
    })
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status).toBe(200)
    const again = await waitFor(async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)
      return g.status === 200 && g.json.metadata.uid !== first.metadata.uid ? g.json : undefined
    })
    expect(again.metadata.name).toBe('default')
  })
})
