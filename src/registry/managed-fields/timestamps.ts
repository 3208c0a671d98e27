// kube's IgnoreManagedFieldsTimestampsTransformer (apiserver/pkg/endpoints/handlers/fieldmanager, run on every update
// and patch): a write that changes nothing but the managedFields timestamps keeps the stored ones, so it is a no-op
// with the same resourceVersion. It matters where the applied config lacks what defaulting adds (a LimitRange's
// defaultRequest): the apply sees a difference, defaulting takes it away again, and only the time would have moved.
import type { KubeObject } from '../../schema/meta'
import { deepEqual } from '../deep-equal'

type Entry = Record<string, unknown>

/** Puts the stored managedFields back on `obj` when that is the only difference between them. */
export function keepManagedFieldsTimestamps(obj: KubeObject, old: KubeObject): void {
  const mine = obj.metadata.managedFields as Entry[] | undefined
  const theirs = old.metadata.managedFields as Entry[] | undefined
  if (!mine || !theirs || mine.length !== theirs.length || deepEqual(mine, theirs)) return
  const untimed = (e: Entry) => {
    const { time: _, ...rest } = e
    return rest
  }
  if (!mine.every((e, i) => deepEqual(untimed(e), untimed(theirs[i]!)))) return
  const strip = (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, managedFields: undefined } })
  if (!deepEqual(strip(obj), strip(old))) return
  obj.metadata.managedFields = theirs
}
