// The read verbs' work inside a host: GET and LIST answered from the DO's own store, and the freshness check a
// requested resourceVersion goes through first (lists and watches).
import type { D1Log } from '../log/d1-log'
import { listObjects, type ListPage } from '../registry/list'
import { parseLabelSelector } from '../registry/label-selector'
import { parseFieldSelector } from '../registry/field-selector'
import { resourceByPlural } from '../registry/resources'
import { statuses, fail, ok, type Result, type Status } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import type { LocalStore } from './local-store'
import type { ListQuery } from './rpc-types'
import type { WriteQueue } from './write-queue'

export function getObject(local: LocalStore, resource: string, name: string): Result<KubeObject> {
  const def = resourceByPlural(resource)
  if (!def) return fail(statuses.pathNotFound())
  const found = local.get(resource, name)
  return found ? ok(found.object) : fail(statuses.notFound({ resource, group: def.group || undefined }, name))
}

export async function listLocal(
  local: LocalStore,
  resource: string,
  q: ListQuery,
  ensureFresh: (minRv: number) => Promise<Status | null>,
): Promise<Result<ListPage>> {
  const def = resourceByPlural(resource)
  if (!def) return fail(statuses.pathNotFound())
  const labelSelector = q.labelSelector ? parseLabelSelector(q.labelSelector) : undefined
  if (labelSelector && !labelSelector.ok) return fail(statuses.badRequest(labelSelector.message))
  const fieldSelector = q.fieldSelector ? parseFieldSelector(q.fieldSelector) : undefined
  if (fieldSelector && !fieldSelector.ok) return fail(statuses.badRequest(fieldSelector.message))
  let floor = q.mode.kind === 'exact' ? q.mode.rv : q.minRv
  if (floor !== undefined) {
    const fresh = await ensureFresh(floor)
    if (fresh) return fail(fresh)
  }
  const page = await listObjects(local.listSource(resource), def.strategy, {
    mode: q.mode,
    limit: q.limit,
    labelSelector: labelSelector?.selector,
    fieldSelector: fieldSelector?.selector,
  })
  if (page.ok && q.minRv !== undefined && q.mode.kind !== 'exact') {
    page.value.resourceVersion = Math.max(page.value.resourceVersion, q.minRv)
  }
  return page
}

/** Waits out in-flight commits, then checks a requested resourceVersion against the cluster's newest. */
export async function ensureFresh(host: { local: LocalStore; queue: WriteQueue; log: D1Log }, minRv: number): Promise<Status | null> {
  if (minRv <= host.local.currentRv) return null
  await host.queue.idle()
  if (minRv <= host.local.currentRv) return null
  let current = await host.log.currentRv()
  if (minRv > current) {
    // kube waits a little for the store to catch up before giving up.
    await new Promise((r) => setTimeout(r, 1000))
    current = await host.log.currentRv()
    if (minRv > current) return statuses.tooLargeResourceVersion(minRv, current)
  }
  return null
}
