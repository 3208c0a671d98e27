// What a pod create, a pod turning Failed and a pod delete cost in a namespace of 5,000 static pods with a
// `pods=100000` ResourceQuota, against the same writes in a namespace of the same size without a quota: timed,
// printed, never asserted. Sequential writes from one client, timed until the quota's status.used shows them, so the
// time per write is the namespace object's work on it and on the quota (the quota's share: the difference).
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, staticPod, waitFor } from '../../test/helpers'

const PODS = 5000
const TIMED = 300

async function seed(ns: string) {
  for (let i = 0; i < PODS; i += 50) {
    const batch = Array.from({ length: Math.min(50, PODS - i) }, (_, j) =>
      req('POST', `/api/v1/namespaces/${ns}/pods`, staticPod(`seed-${i + j}`)),
    )
    for (const r of await Promise.all(batch)) expect(r.status).toBe(201)
  }
}

const used = async (ns: string) =>
  (await req('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).json.status?.used?.pods as string | undefined

/** ms per write of `TIMED` sequential writes, until the quota (when there is one) shows `settled` pods used. */
async function timeWrites(
  ns: string,
  write: (i: number) => Promise<{ status: number; text: string }>,
  settled?: string,
) {
  const t0 = performance.now()
  for (let i = 0; i < TIMED; i++) {
    const r = await write(i)
    expect(r.status, r.text).toBeLessThan(300)
  }
  if (settled) await waitFor(async () => (await used(ns)) === settled, 600_000)
  return (performance.now() - t0) / TIMED
}

const create = (ns: string) => (i: number) => req('POST', `/api/v1/namespaces/${ns}/pods`, staticPod(`timed-${i}`))
const fail = (ns: string) => (i: number) =>
  req(
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/seed-${i}/status`,
    { status: { phase: 'Failed' } },
    { 'content-type': 'application/merge-patch+json' },
  )
const remove = (ns: string) => (i: number) =>
  req('DELETE', `/api/v1/namespaces/${ns}/pods/seed-${TIMED + i}`, { gracePeriodSeconds: 0 })

describe('pod create cost with a quota', () => {
  it(`${PODS} static pods, ${TIMED} timed creates`, async () => {
    const plain = await makeNamespace('cost-plain')
    const quota = await makeNamespace('cost-quota')
    await seed(plain)
    await seed(quota)
    const q = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '100000' } } }
    expect((await req('POST', `/api/v1/namespaces/${quota}/resourcequotas`, q)).status).toBe(201)
    // Warm both (the first count of the quota, the isolate's code paths).
    for (let i = 0; i < 20; i++) {
      await req('POST', `/api/v1/namespaces/${plain}/pods`, staticPod(`warm-${i}`))
      await req('POST', `/api/v1/namespaces/${quota}/pods`, staticPod(`warm-${i}`))
    }
    const n = PODS + 20
    const rows = {
      create: [await timeWrites(plain, create(plain)), await timeWrites(quota, create(quota), String(n + TIMED))],
      failed: [await timeWrites(plain, fail(plain)), await timeWrites(quota, fail(quota), String(n))],
      delete: [await timeWrites(plain, remove(plain)), await timeWrites(quota, remove(quota), String(n - TIMED))],
    }
    for (const [row, [without, withQuota]] of Object.entries(rows))
      console.log(
        `quota-cost: ${PODS} pods; ms per ${row}: without quota ${without!.toFixed(2)}, with pods=100000 quota ${withQuota!.toFixed(2)}`,
      )
    console.log(`quota-cost: status.used.pods ${await used(quota)}`)
  })
})
