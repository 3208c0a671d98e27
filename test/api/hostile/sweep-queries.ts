// The query sweep of one resource: garbage parameters on its list and watch, on a get, a delete and a
// deletecollection of a stored object, which must survive every refused delete.
import { deleteBodies, deleteCases, getCases, listCases } from './query-cases'
import type { Findings } from './refusal'
import { collection, type Served, stored } from './served'
import { expectUnchanged, storeExample } from './stored-object'

const JSON_CT = { 'content-type': 'application/json' }

export async function sweepQueries(s: Served, ns: string, findings: Findings) {
  const path = collection(s, ns)
  const verbs = new Set(s.verbs)
  if (verbs.has('list'))
    for (const c of listCases(false))
      await findings.send(`${s.resource} list ${c.id}`, 'GET', path + c.query, undefined, {}, c.want)
  if (verbs.has('watch'))
    for (const c of listCases(true))
      await findings.send(`${s.resource} watch ${c.id}`, 'GET', path + c.query, undefined, {}, c.want)
  if (!stored(s)) return
  let { item, baseline } = await storeExample(s, ns, 'query')
  for (const c of getCases())
    await findings.send(`${s.resource} get ${c.id}`, 'GET', item + c.query, undefined, {}, c.want)
  for (const name of ['a'.repeat(300), 'no%20such', '%E2%98%83', 'x.y.z']) {
    await findings.send(`${s.resource} get odd-name`, 'GET', `${path}/${name}`, undefined, {}, { codes: [400, 404] })
  }
  let current = baseline
  /** After a refused delete the object is there as it was; after one kube would refuse, a new one takes its place. */
  const check = async (id: string, r: { status: number }) => {
    if (r.status < 200 || r.status >= 300) current = await expectUnchanged(findings, id, item, current)
    else {
      ;({ item, baseline } = await storeExample(s, ns, 'query'))
      current = baseline
    }
  }
  if (verbs.has('delete')) {
    for (const c of deleteCases()) {
      const id = `${s.resource} delete ${c.id}`
      await check(id, await findings.send(id, 'DELETE', item + c.query, undefined, {}, c.want))
    }
    for (const c of deleteBodies(baseline.metadata.uid)) {
      const id = `${s.resource} delete ${c.id}`
      await check(id, await findings.send(id, 'DELETE', item, c.body, JSON_CT, c.want))
    }
  }
  if (verbs.has('deletecollection')) {
    for (const [id, query, codes] of [
      ['label-selector-garbage', '?labelSelector=%21%21', [400]],
      ['field-selector-garbage', '?fieldSelector=a', [400]],
      ['propagation-policy-garbage', '?propagationPolicy=Sometimes', [422]],
      ['limit-garbage', '?limit=abc', [400]],
    ] as const) {
      const id2 = `${s.resource} deletecollection ${id}`
      await check(id2, await findings.send(id2, 'DELETE', path + query, undefined, {}, { codes: [...codes] }))
    }
  }
}
