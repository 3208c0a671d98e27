// core/v1 Events validated as kube's legacyValidateEvent (pkg/apis/core/validation/events.go) validates them, through
// the API: the namespace rules, the new-style (eventTime) fields, and names checked only as path segments.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'

const event = (extra: Record<string, unknown>, name = 'e') => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'p', apiVersion: 'v1' },
  reason: 'Tested',
  message: 'm',
  type: 'Normal',
  ...extra,
})
const post = (ns: string, body: unknown) => req('POST', `/api/v1/namespaces/${ns}/events`, body)

describe('core/v1 Event validation', () => {
  it('outside default, an involved object without a namespace is refused in kube words', async () => {
    const ns = await makeNamespace('ev')
    const r = await post(ns, event({}))
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      'Event "e" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace',
    )
  })

  it("in default it is allowed (old clients' events about cluster-scoped objects)", async () => {
    const r = await post('default', event({}, `ev-${Date.now().toString(36)}`))
    expect(r.status, r.text).toBe(201)
  })

  it("an involved object in another namespace is refused; in the event's own it is fine", async () => {
    const ns = await makeNamespace('ev')
    const other = await post(ns, event({ involvedObject: { kind: 'Pod', name: 'p', namespace: 'elsewhere' } }))
    expect(other.status).toBe(422)
    expect(other.json.message).toBe(
      'Event "e" is invalid: involvedObject.namespace: Invalid value: "elsewhere": does not match event.namespace',
    )
    expect((await post(ns, event({ involvedObject: { kind: 'Pod', name: 'p', namespace: ns } }))).status).toBe(201)
  })

  it('an event with an eventTime names its reporting controller, instance, action and reason', async () => {
    const ns = await makeNamespace('ev')
    const r = await post(
      ns,
      event({
        involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
        eventTime: '2024-01-02T03:04:05.000000Z',
        reason: 'r'.repeat(129),
      }),
    )
    expect(r.status, r.text).toBe(422)
    expect(r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`)).toEqual([
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Invalid value: "": can have at most 128 characters',
    ])
    const ok = await post(
      ns,
      event({
        involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
        eventTime: '2024-01-02T03:04:05.000000Z',
        reportingComponent: 'example.com/controller',
        reportingInstance: 'i',
        action: 'Tested',
      }),
    )
    expect(ok.status, ok.text).toBe(201)
  })

  it('type, count and the name are not checked beyond kube (any type, a path-segment name)', async () => {
    const ns = await makeNamespace('ev')
    const io = { kind: 'Pod', name: 'p', namespace: ns }
    const odd = await post(ns, event({ involvedObject: io, type: 'Odd', count: -1 }, 'Bad_Name!'))
    expect(odd.status, odd.text).toBe(201)
    const slash = await post(ns, event({ involvedObject: io }, 'a%b'))
    expect(slash.status).toBe(422)
    expect(slash.json.message).toBe(`Event "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain '%'`)
  })
})
