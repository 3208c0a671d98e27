// A stored object for the hostile writes to aim at, and the check that a refused write left it as it was.
import { nameFor, validObject } from './fixtures'
import type { Findings } from './refusal'
import { send } from './refusal'
import { collection, type Served } from './served'
import { content, settled } from './settle'

export interface Target {
  /** The item's path. */
  item: string
  /** The valid object it was created from. */
  example: Record<string, any>
  /** The object as first stored (settled). */
  baseline: any
}

/** Creates a valid object of the resource in `ns` (named from `base`) and waits until controllers leave it be. */
export async function storeExample(s: Served, ns: string, base: string): Promise<Target> {
  // A random tail too: a kind served in two versions (HPAs) stores both sweeps' examples in one place.
  const name = nameFor(s.kind, `${base}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`)
  const example = validObject(s.groupVersion, s.kind, name, ns)
  if (!example) throw new Error(`no example of ${s.kind}`)
  const created = await send('POST', collection(s, ns), example)
  if (created.status !== 201) throw new Error(`example ${s.kind}: ${created.status} ${created.text}`)
  const item = `${collection(s, ns)}/${name}`
  return { item, example, baseline: await settled(item) }
}

const same = (a: any, b: any) => JSON.stringify(content(a)) === JSON.stringify(content(b))

/**
 * After a refused write: the object must read as `current` did (what clients wrote; controllers' status writes
 * aside). Records a finding otherwise; answers the object as it now is.
 */
export async function expectUnchanged(findings: Findings, id: string, item: string, current: any): Promise<any> {
  const after = await send('GET', item)
  if (after.status !== 200) {
    findings.add(`${id} half-written`, `after a refused write, GET answers ${after.status} ${after.text.slice(0, 200)}`)
    return current
  }
  if (same(after.json, current)) return after.json
  const again = await settled(item)
  if (!same(again, current))
    findings.add(`${id} half-written`, `a refused write changed the object: ${JSON.stringify(again).slice(0, 400)}`)
  return again
}
