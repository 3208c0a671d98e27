// Hostile patches of every patch type against a stored object of every resource with a patch verb: each answer is a
// refusal with a Status (or a 2xx where kube takes the patch), and a refused patch leaves the object as it was.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings } from './refusal'
import { servedResources, stored } from './served'
import { sweepPatches } from './sweep-patches'

const served = (await servedResources()).filter(
  (s) => stored(s) && s.verbs.includes('patch') && validObject(s.groupVersion, s.kind, 'x'),
)
const ns = await makeNamespace('hostile-patch')

describe.concurrent('hostile patches of every type, every resource with a patch verb', () => {
  it.each(served.map((s, i) => [`${s.groupVersion} ${s.resource}`, s, i] as const))('%s', async (_, s, slot) => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepPatches(s, ns, findings, slot)
    findings.expectNone()
  })
})
