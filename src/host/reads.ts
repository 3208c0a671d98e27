// The read verbs' work inside a host: GET and LIST answered from its own store, and the freshness check a requested
// resourceVersion goes through first (gets, lists and watches).
import { listObjects, type ListPage } from '../registry/list'
import { resourceByPlural } from '../registry/resources'
import { selectorsFrom } from '../registry/selectors'
import { statuses, fail, ok, type Result, type Status } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import type { ChangeLog } from './change-log'
import type { ObjectStore } from './object-store'
import type { ListQuery } from './rpc-types'
import type { WriteQueue } from './write-queue'

export function getObject(objects: ObjectStore, resource: string, name: string): Result<KubeObject> {
  const def = resourceByPlural(resource)
  if (!def) return fail(statuses.pathNotFound())
  const found = objects.get(resource, name)
  return found
    ? ok(found.object)
    : fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name))
}

export async function listLocal(
  objects: ObjectStore,
  resource: string,
  q: ListQuery,
  ensureFresh: (minRv: number) => Promise<Status | null>,
): Promise<Result<ListPage>> {
  const def = resourceByPlural(resource)
  if (!def) return fail(statuses.pathNotFound())
  const floor = q.mode.kind === 'exact' ? q.mode.rv : q.minRv
  if (floor !== undefined) {
    const fresh = await ensureFresh(floor)
    if (fresh) return fail(fresh)
  }
  const page = await listObjects(objects.listSource(resource), def.strategy, {
    mode: q.mode,
    limit: q.limit,
    ...selectorsFrom(q.selectors),
  })
  if (page.ok && q.minRv !== undefined && q.mode.kind !== 'exact') {
    page.value.resourceVersion = Math.max(page.value.resourceVersion, q.minRv)
  }
  return page
}

/** Waits out in-flight commits, then checks a requested resourceVersion against the cluster's newest. */
export async function ensureFresh(
  host: { objects: ObjectStore; queue: WriteQueue; log: ChangeLog },
  minRv: number,
): Promise<Status | null> {
  if (minRv <= host.objects.currentRv) return null
  await host.queue.idle()
  if (minRv <= host.objects.currentRv) return null
  let current = await host.log.currentRv()
  if (minRv > current) {
    // kube waits a little for the store to catch up before giving up.
    await new Promise((r) => setTimeout(r, 1000))
    current = await host.log.currentRv()
    if (minRv > current) return statuses.tooLargeResourceVersion(minRv, current)
  }
  return null
}
