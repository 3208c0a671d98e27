// pods/ephemeralcontainers and pods/status through the Worker: what each may change, and readiness gates.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req } from '../helpers'

async function running(ns: string, name: string) {
  for (let i = 0; i < 200; i++) {
    const g = await req('GET', `/api/v1/namespaces/${ns}/pods/${name}`)
    if (g.json?.status?.phase === 'Running') return g.json
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('pod never ran')
}

describe('pods/ephemeralcontainers', () => {
  it('adds a debug container, refuses changes to existing ones and to anything else', async () => {
    const ns = await makeNamespace('eph')
    await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('web'))
    await running(ns, 'web')
    const patch = { spec: { ephemeralContainers: [{ name: 'debugger', image: 'busybox', targetContainerName: 'c' }] } }
    const r = await req('PATCH', `/api/v1/namespaces/${ns}/pods/web/ephemeralcontainers`, patch, {
      'content-type': 'application/strategic-merge-patch+json',
    })
    expect(r.status, r.text).toBe(200)
    expect(r.json.spec.ephemeralContainers.map((c: any) => c.name)).toEqual(['debugger'])
    const g = await req('GET', `/api/v1/namespaces/${ns}/pods/web/ephemeralcontainers`)
    expect(g.json.spec.ephemeralContainers).toHaveLength(1)
    // Other spec fields sent through this subresource are ignored, as kube does.
    const sneaky = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/web/ephemeralcontainers`,
      { spec: { activeDeadlineSeconds: 5 } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(sneaky.status).toBe(200)
    expect(sneaky.json.spec.activeDeadlineSeconds).toBeUndefined()
    const change = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/web/ephemeralcontainers`,
      { spec: { ephemeralContainers: [{ name: 'debugger', image: 'alpine', targetContainerName: 'c' }] } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    )
    expect(change.status).toBe(422)
    expect(change.json.message).toContain('existing ephemeral containers "debugger" may not be changed')
    // The simulated kubelet gives the new container a status.
    for (let i = 0; i < 100; i++) {
      const p = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
      if (p.json.status.ephemeralContainerStatuses?.length === 1) return
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error('no ephemeral container status')
  })
})

describe('pods/status', () => {
  it('changes only status (and labels/annotations); readiness gates follow the conditions', async () => {
    const ns = await makeNamespace('st')
    await req(
      'POST',
      `/api/v1/namespaces/${ns}/pods`,
      pod('gated', {}, { readinessGates: [{ conditionType: 'example.com/ready' }] }),
    )
    const p = await running(ns, 'gated')
    expect(p.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('False')
    const r = await req(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/gated/status`,
      {
        metadata: { labels: { seen: 'yes' } },
        spec: { activeDeadlineSeconds: 9 },
        status: { conditions: [{ type: 'example.com/ready', status: 'True' }] },
      },
      { 'content-type': 'application/strategic-merge-patch+json' },
    )
    expect(r.status, r.text).toBe(200)
    expect(r.json.metadata.labels.seen).toBe('yes')
    expect(r.json.spec.activeDeadlineSeconds).toBeUndefined()
    for (let i = 0; i < 100; i++) {
      const g = await req('GET', `/api/v1/namespaces/${ns}/pods/gated`)
      if (g.json.status.conditions.find((c: any) => c.type === 'Ready').status === 'True') return
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error('Ready never followed the gate')
  })
})
