// A D1 commit that throws may still have landed (a timeout whose answer was lost). The write queue asks the log
// before answering: a landed batch is a success, an absent one is rolled back, an unknown one keeps its reservations.
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { makeNamespace, req } from '../helpers'

const service = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }], ...spec },
})

type Log = { commit: (...a: unknown[]) => Promise<number[]>; changesFor: (...a: unknown[]) => Promise<unknown[]> }

/** Makes the namespace's next commit misbehave: `landed` runs the real commit before throwing. */
async function breakNextCommit(ns: string, how: { landed: boolean; logUnreadable?: boolean }) {
  await runInDurableObject(env.NAMESPACES.getByName(ns), (instance) => {
    const log = (instance as unknown as { host: { log: Log } }).host.log
    const commit = log.commit.bind(log)
    const changesFor = log.changesFor.bind(log)
    log.commit = async (...a: unknown[]) => {
      log.commit = commit
      if (how.landed) await commit(...a)
      if (how.logUnreadable) {
        log.changesFor = async () => {
          log.changesFor = changesFor
          throw new Error('D1_ERROR: network connection lost')
        }
      }
      throw new Error('D1_ERROR: timed out')
    }
  })
}

const ip = () => `10.96.${200 + Math.floor(Math.random() * 50)}.${1 + Math.floor(Math.random() * 250)}`

describe('a commit whose answer is lost', () => {
  it('answers the write that landed as a success and keeps its cluster IP reserved', async () => {
    const [a, b] = [await makeNamespace('lost'), await makeNamespace('lost')]
    const addr = ip()
    await breakNextCommit(a, { landed: true })
    const r = await req('POST', `/api/v1/namespaces/${a}/services`, service('s', { clusterIP: addr }))
    expect(r.status, r.text).toBe(201)
    expect(r.json.spec.clusterIP).toBe(addr)
    const g = await req('GET', `/api/v1/namespaces/${a}/services/s`)
    expect(g.json.metadata.resourceVersion).toBe(r.json.metadata.resourceVersion)
    const dup = await req('POST', `/api/v1/namespaces/${b}/services`, service('t', { clusterIP: addr }))
    expect(dup.status).toBe(422)
    expect(dup.json.message).toContain('provided IP is already allocated')
  })

  it('claims the creation token, so a retry with the same Idempotency-Key makes no second object', async () => {
    const ns = await makeNamespace('lost')
    const body = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { generateName: 'cm-' },
      spec: { ports: [{ port: 80 }] },
    }
    await breakNextCommit(ns, { landed: true })
    const first = await req('POST', `/api/v1/namespaces/${ns}/services`, body, { 'Idempotency-Key': 'k1' })
    expect(first.status).toBe(201)
    const retry = await req('POST', `/api/v1/namespaces/${ns}/services`, body, { 'Idempotency-Key': 'k1' })
    expect(retry.status).toBe(409)
    expect(retry.json.details.name).toBe(first.json.metadata.name)
    const list = await req('GET', `/api/v1/namespaces/${ns}/services`)
    expect(list.json.items.filter((o: any) => o.metadata.name.startsWith('cm-'))).toHaveLength(1)
  })
})

describe('a commit that did not land', () => {
  it('answers 503 and releases the cluster IP it had reserved', async () => {
    const [a, b] = [await makeNamespace('lost'), await makeNamespace('lost')]
    const addr = ip()
    await breakNextCommit(a, { landed: false })
    const r = await req('POST', `/api/v1/namespaces/${a}/services`, service('s', { clusterIP: addr }))
    expect(r.status).toBe(503)
    expect(r.json.reason).toBe('ServiceUnavailable')
    expect((await req('GET', `/api/v1/namespaces/${a}/services/s`)).status).toBe(404)
    const other = await req('POST', `/api/v1/namespaces/${b}/services`, service('t', { clusterIP: addr }))
    expect(other.status, other.text).toBe(201)
  })
})

describe('a commit whose outcome the log cannot tell', () => {
  it('answers 503, keeps the reservation, and the next write catches up with what landed', async () => {
    const [a, b] = [await makeNamespace('lost'), await makeNamespace('lost')]
    const addr = ip()
    await breakNextCommit(a, { landed: true, logUnreadable: true })
    const r = await req('POST', `/api/v1/namespaces/${a}/services`, service('s', { clusterIP: addr }))
    expect(r.status).toBe(503)
    // Kept: the object holding it did commit.
    const dup = await req('POST', `/api/v1/namespaces/${b}/services`, service('t', { clusterIP: addr }))
    expect(dup.status).toBe(422)
    const poke = await req('POST', `/api/v1/namespaces/${a}/services`, service('poke'))
    expect(poke.status).toBe(201)
    const g = await req('GET', `/api/v1/namespaces/${a}/services/s`)
    expect(g.status).toBe(200)
    expect(g.json.spec.clusterIP).toBe(addr)
  })
})
