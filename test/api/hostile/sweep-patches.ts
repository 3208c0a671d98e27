// The patch sweep of one resource: every hostile patch (patch-cases.ts) against a stored object, which must stay as
// it was after each refused patch.
import { patchCases } from './patch-cases'
import type { Findings } from './refusal'
import { type Served, share } from './served'
import { restore, settled } from './settle'
import { expectUnchanged, storeExample } from './stored-object'

/** `slot`: the kind's place in a sweep of many (a share of the generic cases), null for all of them. */
export async function sweepPatches(s: Served, ns: string, findings: Findings, slot: number | null = null) {
  const { item, example, baseline } = await storeExample(s, ns, 'patch')
  let current = baseline
  // A custom resource takes no strategic merge patch (415).
  for (const c of share(patchCases(example, { strategic: !s.custom, namespaced: s.namespaced }), slot)) {
    const id = `${s.resource} ${c.id}`
    const headers = { 'content-type': c.contentType }
    const r = await findings.send(id, 'PATCH', item + (c.query ?? ''), c.body, headers, c.want)
    if (r.status >= 200 && r.status < 300) {
      await restore(item, baseline)
      current = await settled(item)
    } else current = await expectUnchanged(findings, id, item, current)
  }
}
