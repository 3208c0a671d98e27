// Reading an object once the cluster's controllers are done with it, comparing what clients wrote, and putting a
// first state back after a hostile write kube takes.
import { sleep } from '../../helpers'
import { send } from './refusal'

/** The object at `path` once two reads 50 ms apart agree (at most ~2 s), parsed. */
export async function settled(path: string): Promise<any> {
  let last = await send('GET', path)
  for (let i = 0; i < 40; i++) {
    if (last.status !== 200) throw new Error(`GET ${path}: ${last.status} ${last.text}`)
    await sleep(50)
    const again = await send('GET', path)
    if (again.json?.metadata?.resourceVersion === last.json.metadata.resourceVersion) return again.json
    last = again
  }
  return last.json
}

/** Annotations controllers write (deployment.kubernetes.io/revision, ...): no hostile case sets one. */
const CONTROLLER_ANNOTATION = /(^|\.)kubernetes\.io\/|^deprecated\./

/** What a client wrote: the object without status and the metadata the server and controllers keep moving. */
export function content(o: any) {
  const { status: _, ...rest } = o
  const { resourceVersion: _rv, managedFields: _mf, annotations, ...metadata } = o.metadata
  const own = Object.entries(annotations ?? {}).filter(([k]) => !CONTROLLER_ANNOTATION.test(k))
  // The scheduler binds a pod (spec.nodeName) whenever it gets to it.
  const spec = o.kind === 'Pod' && o.spec ? { ...o.spec, nodeName: undefined } : o.spec
  return { ...rest, spec, metadata: { ...metadata, annotations: Object.fromEntries(own) } }
}

/** Puts the object's first stored state back (retrying while a controller writes in between). */
export async function restore(item: string, baseline: any) {
  for (let i = 0; i < 10; i++) {
    const now = (await send('GET', item)).json
    const metadata = { ...baseline.metadata, resourceVersion: now.metadata.resourceVersion }
    // A pod bound since keeps its node: that is the scheduler's field, not the hostile write's.
    const spec = now.kind === 'Pod' ? { ...baseline.spec, nodeName: now.spec.nodeName } : baseline.spec
    const back = await send('PUT', item, { ...baseline, metadata, spec })
    if (back.status === 200) return
    if (back.status !== 409) throw new Error(`restoring ${item}: ${back.status} ${back.text}`)
  }
  throw new Error(`restoring ${item}: conflicts all along`)
}
