// Hostile create bodies against every resource discovery lists with a create verb: unreadable JSON and YAML, wrong
// kinds and versions, bad metadata and names, strict decoding, sizes and media types. Every answer is a refusal
// with a Status (or a 2xx where kube takes the input), and a refused create leaves nothing behind.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings } from './refusal'
import { servedResources } from './served'
import { sweepCreates } from './sweep-creates'

const served = (await servedResources()).filter((s) => s.verbs.includes('create'))
const ns = await makeNamespace('hostile-create')

describe.concurrent('hostile create bodies, every resource with a create verb', () => {
  it.each(served.map((s, i) => [`${s.groupVersion} ${s.resource}`, s, i] as const))('%s', async (_, s, slot) => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepCreates(s, ns, findings, slot)
    findings.expectNone()
  })
})
