// Aggregated discovery's ETag (src/api/discovery-etag.ts): kube's ServeHTTPWithETag, so a client's discovery cache
// can revalidate with If-None-Match and get a 304 while the served kinds have not changed.
import { describe, expect, it } from 'vitest'
import { req } from '../helpers'
import { crd, freshGroup, install } from '../support/crds'

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'

/** kube hashes the list as cached, without its TypeMeta: the served body minus kind and apiVersion. */
async function expectedTag(body: string): Promise<string> {
  const prefix = '{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2",'
  expect(body.startsWith(prefix)).toBe(true)
  const hashed = `{${body.slice(prefix.length).trimEnd()}`
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', new TextEncoder().encode(hashed)))
  return `"${[...digest].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('')}"`
}

describe('aggregated discovery ETag', () => {
  for (const path of ['/api', '/apis']) {
    it(`${path}: the SHA-512 of the document, Vary: Accept, Cache-Control: public; If-None-Match gives a 304`, async () => {
      const first = await req('GET', path, undefined, { accept: AGGREGATED })
      expect(first.status).toBe(200)
      const tag = first.headers.get('etag')
      expect(tag).toBe(await expectedTag(first.text))
      expect(first.headers.get('vary')).toBe('Accept')
      expect(first.headers.get('cache-control')).toBe('public')

      const cached = await req('GET', path, undefined, { accept: AGGREGATED, 'if-none-match': tag! })
      expect(cached.status).toBe(304)
      expect(cached.text).toBe('')
      expect(cached.headers.get('etag')).toBe(tag)

      const stale = await req('GET', path, undefined, { accept: AGGREGATED, 'if-none-match': '"ABC"' })
      expect(stale.status).toBe(200)
      expect(stale.text).toBe(first.text)
    })
  }

  it('a new CRD changes the /apis tag, so a cached document is sent again', async () => {
    const before = (await req('GET', '/apis', undefined, { accept: AGGREGATED })).headers.get('etag')!
    await install(crd(freshGroup('etag')))
    const after = await req('GET', '/apis', undefined, { accept: AGGREGATED, 'if-none-match': before })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before)
    expect(after.headers.get('etag')).toBe(await expectedTag(after.text))
  })

  it('the legacy documents carry no ETag and stay uncached', async () => {
    const legacy = await req('GET', '/apis')
    expect(legacy.json.kind).toBe('APIGroupList')
    expect(legacy.headers.get('etag')).toBeNull()
    expect(legacy.headers.get('cache-control')).toBe('no-cache, private')
  })
})
