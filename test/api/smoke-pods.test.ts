// The basic pod round trip through the Worker: create, get, list (DO and D1), graceful delete.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req } from '../helpers'

describe('pods through the Worker', () => {
  it('creates, gets, lists, deletes', async () => {
    const ns = await makeNamespace()
    const c = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('web', { app: 'web' }))
    expect(c.status, c.text).toBe(201)
    expect(c.json.metadata.resourceVersion).toMatch(/^\d+$/)
    expect(c.json.spec.restartPolicy).toBe('Always')
    expect(c.json.status.phase).toBe('Pending')
    const g = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
    expect(g.status).toBe(200)
    expect(g.json.metadata.uid).toBe(c.json.metadata.uid)
    const l = await req('GET', `/api/v1/namespaces/${ns}/pods`)
    expect(l.json.items.map((p: any) => p.metadata.name)).toEqual(['web'])
    const all = await req('GET', `/api/v1/pods?labelSelector=app%3Dweb`)
    expect(all.status, all.text).toBe(200)
    expect(all.json.items.some((p: any) => p.metadata.namespace === ns)).toBe(true)
    const d = await req('DELETE', `/api/v1/namespaces/${ns}/pods/web`)
    expect(d.status, d.text).toBe(200)
    // The pod was scheduled, so deletion is graceful: the simulated kubelet (zero delays here) confirms it.
    let g2 = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
    for (let i = 0; i < 100 && g2.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 20))
      g2 = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
    }
    expect(g2.status).toBe(404)
    expect(g2.json.message).toBe('pods "web" not found')
  })
})
