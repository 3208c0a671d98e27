// /healthz, /livez, /readyz: kube's bodies for passing, verbose, excluded and failing checks, the individual check
// paths, and who may read which (the root paths are public, the individual checks are not).
import { env } from 'cloudflare:workers'
import { createExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { BASE, req } from '../helpers'

const anonymous = { authorization: '' }

/** The app over an env whose D1 binding fails every query, as an unreachable database would. */
async function withBrokenD1(path: string) {
  const DB = {
    prepare() {
      throw new Error('D1_ERROR: database unavailable')
    },
  }
  const admin = (await import('../support/test-tokens')).TEST_TOKENS.admin
  const res = await buildApp().fetch(
    new Request(BASE + path, { headers: { authorization: `Bearer ${admin}` } }),
    { ...env, DB } as unknown as Env,
    createExecutionContext(),
  )
  return { status: res.status, headers: res.headers, text: await res.text() }
}

describe('health endpoints', () => {
  it.each(['/healthz', '/livez', '/readyz'])('%s answers "ok" as plain text, to anonymous too', async (path) => {
    const r = await req('GET', path, undefined, anonymous)
    expect(r.status).toBe(200)
    expect(r.text).toBe('ok')
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('?verbose lists each check and the verdict', async () => {
    expect((await req('GET', '/readyz?verbose')).text).toBe(
      '[+]ping ok\n[+]d1 ok\n[+]cluster-object ok\n[+]poststarthook/kubeflare-bootstrap ok\nreadyz check passed\n',
    )
    expect((await req('GET', '/livez?verbose')).text).toBe(
      '[+]ping ok\n[+]d1 ok\n[+]cluster-object ok\nlivez check passed\n',
    )
  })

  it('?exclude skips a check and warns about names that match none, sorted and quoted', async () => {
    const r = await req('GET', '/healthz?verbose&exclude=d1&exclude=zeta&exclude=alpha')
    expect(r.status).toBe(200)
    expect(r.text).toBe(
      '[+]ping ok\n[+]d1 excluded: ok\n[+]cluster-object ok\n[+]poststarthook/kubeflare-bootstrap ok\n' +
        'warn: some health checks cannot be excluded: no matches for "alpha","zeta"\nhealthz check passed\n',
    )
  })

  it('a failing check is a 500 naming it with the reason withheld; its own path gives the reason', async () => {
    const root = await withBrokenD1('/readyz')
    expect(root.status).toBe(500)
    expect(root.text).toBe(
      '[+]ping ok\n[-]d1 failed: reason withheld\n[+]cluster-object ok\n[+]poststarthook/kubeflare-bootstrap ok\nreadyz check failed\n',
    )
    expect(root.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const one = await withBrokenD1('/readyz/d1')
    expect(one.status).toBe(500)
    expect(one.text).toBe('internal server error: D1_ERROR: database unavailable\n')
    // Excluding the failing check makes the answer healthy again, as kube's ?exclude does.
    expect((await withBrokenD1('/readyz?exclude=d1')).status).toBe(200)
  })

  it('each check has its own path, including the slash-named post-start hook', async () => {
    for (const path of [
      '/livez/ping',
      '/readyz/d1',
      '/healthz/cluster-object',
      '/readyz/poststarthook/kubeflare-bootstrap',
    ]) {
      const r = await req('GET', path)
      expect(r.status, path).toBe(200)
      expect(r.text, path).toBe('ok')
    }
    const unknown = await req('GET', '/readyz/etcd')
    expect(unknown.status).toBe(404)
    expect(unknown.json.reason).toBe('NotFound')
  })

  it('the individual checks are not public: anonymous gets 403 (system:monitoring reads them in kube)', async () => {
    const r = await req('GET', '/readyz/d1', undefined, anonymous)
    expect(r.status).toBe(403)
    expect(r.json.message).toBe('forbidden: User "system:anonymous" cannot get path "/readyz/d1"')
  })
})
