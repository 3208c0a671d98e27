// The patch sweep of one resource: every hostile patch (patch-cases.ts) against a stored object, which must stay as
// it was after each refused patch.
import { patchCases } from './patch-cases'
import type { Findings } from './refusal'
import type { Served } from './served'
import { restore, settled } from './settle'
import { expectUnchanged, storeExample } from './stored-object'

export async function sweepPatches(s: Served, ns: string, findings: Findings) {
  const { item, example, baseline } = await storeExample(s, ns, 'patch')
  let current = baseline
  // A custom resource takes no strategic merge patch (415).
  for (const c of patchCases(example, { strategic: !s.custom, namespaced: s.namespaced })) {
    const id = `${s.resource} ${c.id}`
    const headers = { 'content-type': c.contentType }
    const r = await findings.send(id, 'PATCH', item + (c.query ?? ''), c.body, headers, c.want)
    if (r.status >= 200 && r.status < 300) {
      await restore(item, baseline)
      current = await settled(item)
    } else current = await expectUnchanged(findings, id, item, current)
  }
}
