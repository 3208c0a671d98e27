// Hostile requests to every subresource discovery lists (status, scale, binding, eviction, ephemeralcontainers,
// log, exec, attach, portforward, token, and any added later) of a stored object of each kind.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings } from './refusal'
import { servedResources, stored } from './served'
import { storeExample } from './stored-object'
import { sweepSubresources } from './sweep-subresources'

const served = (await servedResources()).filter(
  (s) => stored(s) && s.subresources.length > 0 && validObject(s.groupVersion, s.kind, 'x'),
)
const ns = await makeNamespace('hostile-sub')

describe.concurrent('hostile requests to every subresource', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    const renew = () => storeExample(s, ns, 'sub')
    await sweepSubresources(s, await renew(), findings, renew)
    findings.expectNone()
  })
})
