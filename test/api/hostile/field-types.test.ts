// Wrong JSON types and nulls at the fields of a valid object of every stored kind, sent as a replace of a stored
// object and as a create: kube decodes a wrong type into a 400 (or, where the Go type takes several, validates it),
// a null into the zero value. A refused replace leaves the stored object as it was; a refused create leaves nothing.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings } from './refusal'
import { servedResources, stored } from './served'
import { sweepTypes } from './sweep-types'

const served = (await servedResources()).filter(
  (s) =>
    stored(s) && s.verbs.includes('create') && s.verbs.includes('update') && validObject(s.groupVersion, s.kind, 'x'),
)
const ns = await makeNamespace('hostile-types')

describe.concurrent('wrong JSON types and nulls at every field of a valid object', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepTypes(s, ns, findings)
    findings.expectNone()
  })
})
