// Hostile replace bodies against a stored object of every resource with an update verb, and against its /status:
// each is refused with a Status, and the object reads as it was afterwards.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings } from './refusal'
import { servedResources, stored } from './served'
import { sweepUpdates } from './sweep-updates'

const served = (await servedResources()).filter(
  (s) => stored(s) && s.verbs.includes('update') && validObject(s.groupVersion, s.kind, 'x'),
)
const ns = await makeNamespace('hostile-update')

describe.concurrent('hostile replace bodies, every resource with an update verb', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepUpdates(s, ns, findings)
    if (s.subresources.some((sub) => sub.name === 'status' && sub.verbs.includes('update')))
      await sweepUpdates(s, ns, findings, 'status')
    findings.expectNone()
  })
})
