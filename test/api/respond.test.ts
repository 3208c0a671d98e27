// Status errors as kube's ErrorNegotiated writes them: a Status whose details carry retryAfterSeconds also sets the
// Retry-After header (client-go waits that long and retries on its own); other errors carry none.
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { BASE, makeNamespace, withToken } from '../helpers'

async function get(path: string) {
  const res = await exports.default.fetch(new Request(BASE + path, { headers: withToken({}) }))
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as never }
}

describe('Retry-After on Status errors', () => {
  it('a list at a resourceVersion past the newest: 504 with retryAfterSeconds 1 and Retry-After: 1', async () => {
    const res = await get('/api/v1/pods?resourceVersion=99999999999&resourceVersionMatch=NotOlderThan')
    expect(res.status).toBe(504)
    expect(res.body).toMatchObject({ reason: 'Timeout', details: { retryAfterSeconds: 1 } })
    expect(res.retryAfter).toBe('1')
  })

  it('a Status without retryAfterSeconds: no Retry-After', async () => {
    const ns = await makeNamespace('respond')
    const res = await get(`/api/v1/namespaces/${ns}/pods/missing`)
    expect(res.status).toBe(404)
    expect(res.retryAfter).toBeNull()
  })
})
