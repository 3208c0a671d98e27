// Methods discovery does not list, on every resource's collection, items and subresources: refused with a Status
// (405, or 404 where kube has no route), never a 5xx.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings } from './refusal'
import { servedResources } from './served'
import { sweepMethods } from './sweep-methods'

const served = await servedResources()
const ns = await makeNamespace('hostile-methods')

describe.concurrent('methods no verb serves, every resource', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepMethods(s, ns, findings)
    findings.expectNone()
  })
})
