import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req } from '../helpers'

async function waitFor<T>(fn: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v !== undefined) return v
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('pod lifecycle on virtual nodes (zero delays)', () => {
  it('schedules, starts, and runs a pod', async () => {
    const ns = await makeNamespace('lc')
    const c = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('web'))
    expect(c.status, c.text).toBe(201)
    const running = await waitFor(async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
      return g.json.status.phase === 'Running' ? g.json : undefined
    })
    expect(running.spec.nodeName).toMatch(/^node-/)
    expect(running.status.podIP).toMatch(/^10\.244\./)
    expect(running.status.conditions.find((x: any) => x.type === 'Ready').status).toBe('True')
  })
})
