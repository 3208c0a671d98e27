// Wrong JSON types and nulls at the fields of a valid object of every stored kind, sent as a replace of a stored
// object and as a create: kube decodes a wrong type into a 400 (or, where the Go type takes several, validates it),
// a null into the zero value. A refused replace leaves the stored object as it was; a refused create leaves nothing.
import { describe, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { fieldPaths, read, sample, show, withValue, wrongType } from './field-paths'
import { nameFor, validObject } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings, send } from './refusal'
import { collection, servedResources, stored } from './served'
import { content, restore, settled } from './settle'

const served = (await servedResources()).filter(
  (s) =>
    stored(s) && s.verbs.includes('create') && s.verbs.includes('update') && validObject(s.groupVersion, s.kind, 'x'),
)
const ns = await makeNamespace('hostile-types')
/** Paths tried per kind: enough to reach nested fields, few enough to keep the sweep short. */
const PATHS_PER_KIND = 14

/**
 * Fields whose Go type takes more than one JSON type, so a number for a string (or the reverse) decodes: kube takes
 * the wrong-typed value or validates it (422). IntOrString (targetPort, minAvailable), Quantity (storage accepts a
 * number), RawExtension (ControllerRevision.data takes any JSON).
 */
const MANY_TYPED = [/targetPort$/, /minAvailable$/, /\.storage$/, /^data(\.|$)/]

let serial = 0
const fresh = (kind: string) => nameFor(kind, `types-${(serial++).toString(36)}-${Date.now().toString(36)}`)

describe.concurrent('wrong JSON types and nulls at every field of a valid object', () => {
  it.each(served.map((s) => [`${s.groupVersion} ${s.resource}`, s] as const))('%s', async (_, s) => {
    const findings = new Findings(KNOWN_BUGS)
    const path = collection(s, ns)
    const name = fresh(s.kind)
    const example = validObject(s.groupVersion, s.kind, name, ns)!
    const created = await send('POST', path, example)
    if (created.status !== 201) throw new Error(`fixture ${s.kind}: ${created.status} ${created.text}`)
    const item = `${path}/${name}`
    const baseline = await settled(item)
    let current = baseline
    const refusedNames: string[] = []

    for (const p of sample(fieldPaths(example), PATHS_PER_KIND)) {
      const field = show(p)
      const loose = s.kind === 'ControllerRevision' ? MANY_TYPED : MANY_TYPED.filter((r) => !r.source.includes('data'))
      const manyTyped = loose.some((r) => r.test(field))
      const value = read(example, p)
      const parent = read(current, p.slice(0, -1))
      if (!parent || typeof parent !== 'object') continue
      for (const [what, replacement] of [
        ['wrong-type', wrongType(value)],
        ['null', null],
      ] as const) {
        const want = what === 'null' || manyTyped ? { accept: true, codes: [400, 422] } : { codes: [400, 422] }
        // The replace: the stored object with the field replaced and a marker label that must not stick if refused.
        // A controller's status write in between is a conflict, not the answer to the hostile field: read and retry.
        const id = `${s.resource} ${what} ${field}`
        let r = await send('GET', item)
        for (let attempt = 0; attempt < 5; attempt++) {
          const marked = withValue(current, ['metadata', 'labels'], {
            ...current.metadata.labels,
            'hostile-marker': '1',
          })
          const body = withValue(marked, p, replacement)
          r = await send('PUT', item, body)
          if (r.status !== 409) break
          current = (await send('GET', item)).json
        }
        findings.note(`${id} update`, `PUT ${item}`, r, want)
        if (r.status >= 200 && r.status < 300) {
          // Taken, as kube may take it: the first stored state is put back (a defaulted null may have woken a
          // controller: replicas 1).
          await restore(item, baseline)
          current = await settled(item)
        } else {
          // One read is enough unless what a client wrote differs (controllers write only status and annotations).
          const after = (await send('GET', item)).json
          if (JSON.stringify(content(after)) !== JSON.stringify(content(current))) {
            const again = await settled(item)
            if (JSON.stringify(content(again)) !== JSON.stringify(content(current)))
              findings.add(
                `${id} update half-written`,
                `a refused PUT changed the object: ${JSON.stringify(again).slice(0, 400)}`,
              )
            current = again
          }
        }
        if (what === 'null') continue
        // The create: the example with the field replaced, under a name of its own.
        const other = fresh(s.kind)
        const createBody = withValue(withValue(example, ['metadata', 'name'], other), p, replacement)
        const c = await findings.send(`${id} create`, 'POST', path, createBody, {}, want)
        if (c.status < 200 || c.status >= 300) refusedNames.push(other)
      }
    }
    const list = await send('GET', path)
    const left = (list.json?.items ?? [])
      .map((o: any) => o.metadata.name)
      .filter((n: string) => refusedNames.includes(n))
    if (left.length > 0) findings.add(`${s.resource} create half-written`, `refused creates left ${left.join(', ')}`)
    findings.expectNone()
  })
})
