// Timestamps a client sends with an offset or a fraction come back as kube writes them: metav1.Time in UTC to the
// second, metav1.MicroTime in UTC to the microsecond (kube decodes them into time.Time and marshals t.UTC()).
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../helpers'

describe('Time and MicroTime fields are stored as kube writes them', () => {
  it('a Lease (MicroTime) and an Event (Time) sent with offsets read back in UTC', async () => {
    const ns = await makeNamespace('times')
    const lease = await req('POST', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2026-11-24T10:00:00.123456+02:00' },
    })
    expect(lease.status, lease.text).toBe(201)
    expect(lease.json.spec.renewTime).toBe('2026-11-24T08:00:00.123456Z')
    const event = await req('POST', `/api/v1/namespaces/${ns}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
      reason: 'Test',
      message: 'm',
      firstTimestamp: '2026-11-24T10:00:00.5-01:00',
      lastTimestamp: '2026-11-24T10:00:00Z',
    })
    expect(event.status, event.text).toBe(201)
    expect(event.json.firstTimestamp).toBe('2026-11-24T11:00:00Z')
    const read = await req('GET', `/api/v1/namespaces/${ns}/events/e`)
    expect(read.json.firstTimestamp).toBe('2026-11-24T11:00:00Z')
  })
})
