// Creation tokens (Idempotency-Key): repeats answer 409 naming the first object; concurrent twins make one.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

const gen = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'tok-' },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
}

describe('creation tokens (Idempotency-Key)', () => {
  it('a repeated create with the same key answers 409 pointing at the first object', async () => {
    const ns = await makeNamespace('tok')
    const first = await req('POST', `/api/v1/namespaces/${ns}/pods`, gen, { 'idempotency-key': 'k-1' })
    expect(first.status, first.text).toBe(201)
    const name = first.json.metadata.name
    const again = await req('POST', `/api/v1/namespaces/${ns}/pods`, gen, { 'idempotency-key': 'k-1' })
    expect(again.status).toBe(409)
    expect(again.json.reason).toBe('AlreadyExists')
    expect(again.json.details).toMatchObject({ name, kind: 'pods', uid: first.json.metadata.uid })
    expect(again.json.metadata.selfLink).toBe(`/api/v1/namespaces/${ns}/pods/${name}`)
    expect(again.json.message).toContain(`pods "${name}" already exists`)
    const list = await req('GET', `/api/v1/namespaces/${ns}/pods`)
    expect(list.json.items).toHaveLength(1)
  })

  it('concurrent creates with one key make exactly one object', async () => {
    const ns = await makeNamespace('tok')
    const results = await Promise.all(
      Array.from({ length: 8 }, () => req('POST', `/api/v1/namespaces/${ns}/pods`, gen, { 'idempotency-key': 'same' })),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(7)
    const list = await req('GET', `/api/v1/namespaces/${ns}/pods`)
    expect(list.json.items).toHaveLength(1)
  })

  it('a refused create leaves the key free; different keys are independent', async () => {
    const ns = await makeNamespace('tok')
    const bad = await req(
      'POST',
      `/api/v1/namespaces/${ns}/pods`,
      { ...gen, spec: { containers: [] } },
      { 'idempotency-key': 'k-2' },
    )
    expect(bad.status).toBe(422)
    const ok = await req('POST', `/api/v1/namespaces/${ns}/pods`, gen, { 'idempotency-key': 'k-2' })
    expect(ok.status).toBe(201)
    const other = await req('POST', `/api/v1/namespaces/${ns}/pods`, gen, { 'idempotency-key': 'k-3' })
    expect(other.status).toBe(201)
  })
})
