// What a pod create costs in a namespace of QUOTA_COST_PODS (5,000) static pods with a `pods=100000` ResourceQuota,
// against the same create in a namespace of the same size without a quota: timed, printed, never asserted. Sequential
// creates from one client, so the time per create is the namespace object's work on it (the quota's share: the
// difference between the two rows).
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, staticPod } from '../../test/helpers'

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

async function timeCreates(ns: string) {
  const t0 = performance.now()
  for (let i = 0; i < TIMED; i++) {
    const r = await req('POST', `/api/v1/namespaces/${ns}/pods`, staticPod(`timed-${i}`))
    expect(r.status, r.text).toBe(201)
  }
  return (performance.now() - t0) / TIMED
}

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
    const withoutQuota = await timeCreates(plain)
    const withQuota = await timeCreates(quota)
    const status = (await req('GET', `/api/v1/namespaces/${quota}/resourcequotas/q`)).json.status
    console.log(
      `quota-cost: ${PODS} pods; ms per create without quota ${withoutQuota.toFixed(2)}, with pods=100000 quota ${withQuota.toFixed(2)}; status.used ${JSON.stringify(status?.used)}`,
    )
  })
})
