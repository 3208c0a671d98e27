// Garbage query parameters and delete options against every resource discovery lists: list and watch selectors,
// limits, continue tokens and resource versions, get options, delete options and bodies, deletecollection. Each is
// refused with a Status (or taken where kube takes it), and a refused delete leaves the object in place.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings } from './refusal'
import { servedResources, stored } from './served'
import { sweepQueries } from './sweep-queries'

const served = (await servedResources()).filter(
  (s) => s.verbs.includes('list') || (stored(s) && validObject(s.groupVersion, s.kind, 'x')),
)
const ns = await makeNamespace('hostile-query')

describe.concurrent('garbage query parameters, every resource', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepQueries(s, ns, findings)
    findings.expectNone()
  })
})
