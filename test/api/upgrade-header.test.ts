// An Upgrade: websocket header on a write means nothing to kube: the method that was sent is served, and only a GET
// watch (or exec/attach/portforward) is answered as a WebSocket. The app is called directly here: workerd's own
// fetch() (the service binding test/helpers.ts uses, and miniflare's entry worker in `npm start`) turns any request
// carrying Upgrade: websocket into a body-less GET before the Worker sees it (test/api/hostile/known-bugs.test.ts).
import { env } from 'cloudflare:workers'
import { createExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { BASE, makeNamespace, req, withToken } from '../helpers'

const WS = { upgrade: 'websocket', connection: 'Upgrade', 'content-type': 'application/json' }

async function direct(method: string, path: string, body?: string) {
  const res = await buildApp().fetch(
    new Request(BASE + path, { method, body, headers: withToken(WS) }),
    env,
    createExecutionContext(),
  )
  return { status: res.status, text: await res.text() }
}

describe('writes carrying Upgrade: websocket, as the Worker receives them', () => {
  it('a POST of an unreadable body is its 400, not the list', async () => {
    const ns = await makeNamespace('upg')
    const r = await direct('POST', `/api/v1/namespaces/${ns}/configmaps`, '{')
    expect(r.status, r.text.slice(0, 200)).toBe(400)
  })

  it('a POST creates, a DELETE deletes', async () => {
    const ns = await makeNamespace('upg')
    const body = JSON.stringify({ metadata: { name: 'a' }, data: { k: 'v' } })
    expect((await direct('POST', `/api/v1/namespaces/${ns}/configmaps`, body)).status).toBe(201)
    const r = await direct('DELETE', `/api/v1/namespaces/${ns}/configmaps/a`)
    expect(r.status, r.text.slice(0, 200)).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps/a`)).status).toBe(404)
  })
})
