// The method sweep of one resource: every HTTP method discovery does not list for its collection, items and
// subresources is refused (405, or 404 where kube has no route at all), with a Status.
import type { Findings } from './refusal'
import { collection, type Served, stored } from './served'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
/** The verb each method serves on a collection, on an item. */
const COLLECTION_VERB: Record<string, string> = { GET: 'list', POST: 'create', DELETE: 'deletecollection' }
const ITEM_VERB: Record<string, string> = { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }
/** Subresources whose GET and POST both mean one verb (connect): create and get. */
const SUB_VERB: Record<string, string> = { GET: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }
const NOT_ALLOWED = { codes: [404, 405] }
const body = (m: string) => (m === 'GET' || m === 'DELETE' ? undefined : '{}')
const headers = (m: string): Record<string, string> =>
  m === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : { 'content-type': 'application/json' }

export async function sweepMethods(s: Served, ns: string, findings: Findings) {
  const path = collection(s, ns)
  const verbs = new Set(s.verbs)
  for (const m of METHODS) {
    const verb = COLLECTION_VERB[m]
    if (verb && verbs.has(verb)) continue
    await findings.send(`${s.resource} collection ${m}`, m, path, body(m), headers(m), NOT_ALLOWED)
  }
  for (const m of ['OPTIONS', 'TRACE', 'PROPFIND']) {
    await findings.send(`${s.resource} collection ${m}`, m, path, undefined, {}, NOT_ALLOWED)
  }
  // An item that does not exist: methods the item has no verb for are refused before anything is looked up.
  const item = `${path}/hostile-nobody`
  for (const m of [...METHODS, 'OPTIONS']) {
    const verb = ITEM_VERB[m]
    if (verb && verbs.has(verb)) continue
    await findings.send(`${s.resource} item ${m}`, m, item, body(m), headers(m), NOT_ALLOWED)
  }
  if (!stored(s)) return
  for (const sub of s.subresources) {
    const subVerbs = new Set(sub.verbs)
    for (const m of METHODS) {
      if (subVerbs.has(SUB_VERB[m]!)) continue
      // POST of a get-only connect subresource (log) and GET of a create-only one (binding): no such method.
      await findings.send(`${s.resource}/${sub.name} ${m}`, m, `${item}/${sub.name}`, body(m), headers(m), NOT_ALLOWED)
    }
  }
  await findings.send(
    `${s.resource} unknown subresource`,
    'GET',
    `${item}/hostile-nothing`,
    undefined,
    {},
    { codes: [404] },
  )
  await findings.send(`${s.resource} too deep`, 'GET', `${item}/status/deeper/still`, undefined, {}, { codes: [404] })
}
