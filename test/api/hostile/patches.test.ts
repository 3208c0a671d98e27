// Hostile patches of every patch type against a stored object of every resource with a patch verb: each answer is a
// refusal with a Status (or a 2xx where kube takes the patch), and a refused patch leaves the object as it was.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { nameFor, validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { patchCases } from './patch-cases'
import { Findings, send } from './refusal'
import { collection, servedResources, stored } from './served'
import { content, restore, settled } from './settle'

const served = (await servedResources()).filter(
  (s) => stored(s) && s.verbs.includes('patch') && validObject(s.groupVersion, s.kind, 'x'),
)
const ns = await makeNamespace('hostile-patch')
/** Custom resources take no strategic merge patch (415); every built-in kind does. */
const STRATEGIC = (groupVersion: string) => !groupVersion.includes('.example.com/')

describe.concurrent('hostile patches of every type, every resource with a patch verb', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    const name = nameFor(s.kind, `patch-${Date.now().toString(36)}`)
    const example = validObject(s.groupVersion, s.kind, name, ns)!
    const path = collection(s, ns)
    const created = await send('POST', path, example)
    if (created.status !== 201) throw new Error(`fixture ${s.kind}: ${created.status} ${created.text}`)
    const item = `${path}/${name}`
    const baseline = await settled(item)
    let current = baseline
    for (const c of patchCases(example, { strategic: STRATEGIC(s.groupVersion), namespaced: s.namespaced })) {
      const id = `${s.resource} ${c.id}`
      const r = await findings.send(
        id,
        'PATCH',
        item + (c.query ?? ''),
        c.body,
        { 'content-type': c.contentType },
        c.want,
      )
      if (r.status >= 200 && r.status < 300) {
        await restore(item, baseline)
        current = await settled(item)
        continue
      }
      const after = await send('GET', item)
      if (after.status !== 200) {
        findings.add(
          `${id} half-written`,
          `after a refused patch, GET answers ${after.status} ${after.text.slice(0, 200)}`,
        )
        break
      }
      if (JSON.stringify(content(after.json)) !== JSON.stringify(content(current))) {
        const again = await settled(item)
        if (JSON.stringify(content(again)) !== JSON.stringify(content(current)))
          findings.add(
            `${id} half-written`,
            `a refused patch changed the object: ${JSON.stringify(again).slice(0, 400)}`,
          )
        current = again
      }
    }
    findings.expectNone()
  })
})
