// The audit log under `npm start`: wrangler dev prints the Worker's audit.k8s.io/v1 Events, one JSON line each, with
// the Audit-Id the response carried; kubectl's requests are there with their user and verb, and a Secret's data is
// not, whatever was sent.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { after, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, api, kubectl, uniqueNs } from './helpers.mjs'

const LOG = process.env.KUBEFLARE_SERVER_LOG ?? ''
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const created = []
after(async () => {
  await Promise.all(created.map((ns) => api('DELETE', `/api/v1/namespaces/${ns}`).catch(() => {})))
})

/** The audit events printed so far whose line matches `pick`, waiting up to 10 s for at least one. */
async function events(pick) {
  for (let i = 0; i < 50; i++) {
    const found = readFileSync(LOG, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"kind":"Event","apiVersion":"audit.k8s.io/v1"') && pick(l))
      .map((l) => JSON.parse(l))
    if (found.length > 0) return found
    await sleep(200)
  }
  return []
}

describe('audit log on the server output', () => {
  it('prints one Metadata event per request, with the Audit-Id the response carried', async () => {
    assert.ok(LOG, 'KUBEFLARE_SERVER_LOG is set by test/e2e/run.mjs')
    const r = await api('GET', '/api/v1/namespaces/default/pods?limit=1')
    assert.equal(r.status, 200)
    const id = r.headers.get('audit-id')
    assert.match(id, /^[0-9a-f-]{36}$/)
    const [ev, ...more] = await events((l) => l.includes(id))
    assert.equal(more.length, 0)
    assert.equal(ev.stage, 'ResponseComplete')
    assert.equal(ev.level, 'Metadata')
    assert.equal(ev.verb, 'list')
    assert.equal(ev.requestURI, '/api/v1/namespaces/default/pods?limit=1')
    assert.equal(ev.user.username, 'e2e-admin')
    assert.deepEqual(ev.objectRef, { resource: 'pods', namespace: 'default', apiVersion: 'v1' })
    assert.deepEqual(ev.responseStatus, { metadata: {}, code: 200 })
    assert.equal(ev.annotations['authorization.k8s.io/decision'], 'allow')
  })

  it("records kubectl's requests and never a Secret's data", async () => {
    const ns = uniqueNs('audit')
    assert.equal((await api('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201)
    created.push(ns)
    const secret = `s3cret-${randomBytes(6).toString('hex')}`
    await kubectl(KUBECTL_VERSIONS.at(-1), [
      'create',
      'secret',
      'generic',
      'creds',
      '-n',
      ns,
      `--from-literal=password=${secret}`,
    ])
    await kubectl(KUBECTL_VERSIONS.at(-1), ['get', 'secret', 'creds', '-n', ns, '-o', 'yaml'])
    const seen = await events((l) => l.includes(`"namespace":"${ns}"`) && l.includes('"resource":"secrets"'))
    assert.deepEqual(seen.map((e) => e.verb).sort(), ['create', 'get'])
    for (const e of seen) {
      assert.match(e.userAgent, /^kubectl/)
      assert.equal(e.level, 'Metadata')
      // The create's objectRef names the object its body decoded to, as kube's LogRequestObject fills it.
      assert.equal(e.objectRef.name, 'creds')
    }
    const text = readFileSync(LOG, 'utf8')
    assert.ok(!text.includes(secret), 'the secret value is nowhere in the server output')
    assert.ok(!text.includes(Buffer.from(secret).toString('base64')), 'nor its base64')
  })
})
