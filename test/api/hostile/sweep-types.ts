// The field-type sweep of one resource: wrong JSON types and nulls at sampled fields of a valid object, sent as a
// replace of a stored object (which must stay as it was when refused) and as a create (which must leave nothing).
import { fieldPaths, read, sample, show, withValue, wrongType } from './field-paths'
import { nameFor } from './fixtures'
import type { Findings } from './refusal'
import { send } from './refusal'
import { collection, type Served } from './served'
import { restore, settled } from './settle'
import { expectUnchanged, storeExample } from './stored-object'

/** Paths tried per kind: enough to reach nested fields, few enough to keep the sweep short. */
const PATHS_PER_KIND = 14

/**
 * Fields whose Go type takes more than one JSON type, so a number for a string (or the reverse) decodes: kube takes
 * the wrong-typed value or validates it (422). IntOrString (targetPort, minAvailable, a NetworkPolicy rule's port:
 * "not-a-number" is a valid port name there), Quantity (storage accepts a number).
 */
const MANY_TYPED = [/targetPort$/, /minAvailable$/, /\.storage$/, /\.(ingress|egress)\[\d+\]\.ports\[\d+\]\.port$/]
/** RawExtension fields take any JSON (ControllerRevision.data). */
const RAW = new Map([['ControllerRevision', /^data(\.|$)/]])

let serial = 0
const fresh = (kind: string) => nameFor(kind, `types-${(serial++).toString(36)}-${Date.now().toString(36)}`)

export async function sweepTypes(s: Served, ns: string, findings: Findings, loose: RegExp[] = []) {
  const path = collection(s, ns)
  const { item, example, baseline } = await storeExample(s, ns, 'types')
  let current = baseline
  const refusedNames: string[] = []
  const anyType = [...MANY_TYPED, ...loose, ...(RAW.has(s.kind) ? [RAW.get(s.kind)!] : [])]
  for (const p of sample(fieldPaths(example), PATHS_PER_KIND)) {
    const field = show(p)
    const manyTyped = anyType.some((r) => r.test(field))
    const parent = read(current, p.slice(0, -1))
    if (!parent || typeof parent !== 'object') continue
    for (const [what, replacement] of [
      ['wrong-type', wrongType(read(example, p))],
      ['null', null],
    ] as const) {
      const want = what === 'null' || manyTyped ? { accept: true, codes: [400, 422] } : { codes: [400, 422] }
      const id = `${s.resource} ${what} ${field}`
      // The replace: the stored object with the field replaced and a marker label that must not stick if refused.
      // A controller's status write in between is a conflict, not the answer to the hostile field: read and retry.
      let r = await send('GET', item)
      for (let attempt = 0; attempt < 5; attempt++) {
        const labels = { ...current.metadata.labels, 'hostile-marker': '1' }
        r = await send('PUT', item, withValue(withValue(current, ['metadata', 'labels'], labels), p, replacement))
        if (r.status !== 409) break
        current = (await send('GET', item)).json
      }
      findings.note(`${id} update`, `PUT ${item}`, r, want)
      if (r.status >= 200 && r.status < 300) {
        // Taken, as kube may take it: the first stored state goes back (a defaulted null may wake a controller).
        await restore(item, baseline)
        current = await settled(item)
      } else current = await expectUnchanged(findings, `${id} update`, item, current)
      if (what === 'null') continue
      // The create: the example with the field replaced, under a name of its own.
      const other = fresh(s.kind)
      const body = withValue(withValue(example, ['metadata', 'name'], other), p, replacement)
      const c = await findings.send(`${id} create`, 'POST', path, body, {}, want)
      if (c.status < 200 || c.status >= 300) refusedNames.push(other)
    }
  }
  const list = await send('GET', path)
  const left = (list.json?.items ?? []).map((o: any) => o.metadata.name).filter((n: string) => refusedNames.includes(n))
  if (left.length > 0) findings.add(`${s.resource} create half-written`, `refused creates left ${left.join(', ')}`)
}
