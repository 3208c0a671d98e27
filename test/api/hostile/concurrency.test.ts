// Conflicting writes at once, against a stored object of every kind with the verbs: replaces carrying the same
// resourceVersion (one wins, the rest are 409 Conflicts), merge patches of distinct labels (all land, none lost),
// creates of one name (one 201, the rest 409 AlreadyExists), applies of one field by different managers (one wins,
// the rest conflict), and deletes of one object (never a 5xx; the object ends gone or terminating).
import { describe, expect, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { nameFor, validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings, send } from './refusal'
import { collection, servedResources, stored } from './served'
import { settled } from './settle'
import { storeExample } from './stored-object'

const served = (await servedResources()).filter(
  (s) =>
    stored(s) &&
    ['create', 'update', 'patch', 'delete'].every((v) => s.verbs.includes(v)) &&
    validObject(s.groupVersion, s.kind, 'x'),
)
const ns = await makeNamespace('hostile-race')
const N = 6
const MERGE = { 'content-type': 'application/merge-patch+json' }
const APPLY = { 'content-type': 'application/apply-patch+yaml' }
const ok = (status: number) => status >= 200 && status < 300

describe.concurrent('conflicting writes at once, every kind', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    const { item, baseline } = await storeExample(s, ns, 'race')
    const at = await settled(item)

    // Replaces from one read: the first to commit wins, every other is told its resourceVersion is stale.
    const puts = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        send('PUT', item, { ...at, metadata: { ...at.metadata, labels: { ...at.metadata.labels, writer: `w${i}` } } }),
      ),
    )
    puts.forEach((r, i) =>
      findings.note(`${s.resource} race put ${i}`, `PUT ${item}`, r, { accept: true, codes: [409] }),
    )
    const winners = puts.filter((r) => ok(r.status))
    expect(winners.length, puts.map((r) => r.status).join(',')).toBeLessThanOrEqual(1)
    if (winners.length === 1) {
      expect((await send('GET', item)).json.metadata.labels.writer).toBe(winners[0]!.json.metadata.labels.writer)
    }

    // Merge patches of distinct labels: each is applied to the newest object, so none is lost.
    const patches = await Promise.all(
      Array.from({ length: N }, (_, i) => send('PATCH', item, { metadata: { labels: { [`p${i}`]: 'x' } } }, MERGE)),
    )
    patches.forEach((r, i) =>
      findings.note(`${s.resource} race patch ${i}`, `PATCH ${item}`, r, { accept: true, codes: [409] }),
    )
    const labels = (await send('GET', item)).json.metadata.labels
    patches.forEach((r, i) => {
      if (ok(r.status)) expect(labels, `label p${i} of a patch that answered ${r.status}`).toHaveProperty(`p${i}`)
    })

    // Applies of one label by different managers: the first owns it, the others conflict (409).
    const head = `apiVersion: ${baseline.apiVersion}\nkind: ${baseline.kind}\nmetadata:\n  name: ${baseline.metadata.name}\n`
    const applies = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        send('PATCH', `${item}?fieldManager=m${i}`, `${head}  labels:\n    shared: v${i}\n`, APPLY),
      ),
    )
    applies.forEach((r, i) =>
      findings.note(`${s.resource} race apply ${i}`, `PATCH ${item}`, r, { accept: true, codes: [409] }),
    )
    expect(applies.filter((r) => ok(r.status)).length, applies.map((r) => r.status).join(',')).toBeLessThanOrEqual(1)

    // Creates of one name: one 201, the others AlreadyExists.
    const name = nameFor(s.kind, `race-new-${Date.now().toString(36)}`)
    const body = validObject(s.groupVersion, s.kind, name, ns)
    const creates = await Promise.all(Array.from({ length: N }, () => send('POST', collection(s, ns), body)))
    creates.forEach((r, i) =>
      findings.note(`${s.resource} race create ${i}`, `POST ${collection(s, ns)}`, r, { accept: true, codes: [409] }),
    )
    expect(creates.filter((r) => r.status === 201).length, creates.map((r) => r.status).join(',')).toBe(1)

    // Deletes of one object, with a replace in among them: nothing worse than a 404 or a 409.
    const deletes = await Promise.all([...Array.from({ length: N }, () => send('DELETE', item)), send('PUT', item, at)])
    deletes.forEach((r, i) =>
      findings.note(`${s.resource} race delete ${i}`, `DELETE ${item}`, r, { accept: true, codes: [404, 409] }),
    )
    expect(deletes.slice(0, N).some((r) => ok(r.status))).toBe(true)
    const after = await send('GET', item)
    if (after.status === 200) expect(after.json.metadata.deletionTimestamp).toBeDefined()
    else expect(after.status).toBe(404)
    findings.expectNone()
  })
})
