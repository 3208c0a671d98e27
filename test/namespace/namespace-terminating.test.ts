// Creates in a namespace being deleted are refused as kube's NamespaceLifecycle plugin refuses them: Forbidden on the
// object created (its generateName before a name is made), with the NamespaceTerminating cause.
import { describe, expect, it } from 'vitest'
import { makeNamespace, podPath, req, staticPod, waitFor } from '../helpers'

describe('a create in a terminating namespace', () => {
  it('is refused naming the object, with the NamespaceTerminating cause', async () => {
    const ns = await makeNamespace()
    // A finalizer keeps the namespace's content, so the namespace stays Terminating.
    const held = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    })
    expect(held.status, held.text).toBe(201)
    expect((await req('DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200)
    await waitFor(async () => (await req('GET', `/api/v1/namespaces/${ns}`)).json?.status?.phase === 'Terminating')

    const named = await req('POST', podPath(ns), staticPod('web'))
    expect(named.status).toBe(403)
    expect(named.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods "web" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      reason: 'Forbidden',
      details: {
        name: 'web',
        kind: 'pods',
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${ns} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      },
      code: 403,
    })

    const body = staticPod('x')
    const generated = await req('POST', podPath(ns), { ...body, metadata: { generateName: 'web-' } })
    expect(generated.status).toBe(403)
    expect(generated.json.message).toBe(
      `pods "web-" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
    )

    const grouped = await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    })
    expect(grouped.status).toBe(403)
    expect(grouped.json.message).toBe(
      `deployments.apps "d" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
    )
    expect(grouped.json.details).toMatchObject({ name: 'd', group: 'apps', kind: 'deployments' })

    await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/configmaps/held`,
      { metadata: { finalizers: null } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
  })
})
