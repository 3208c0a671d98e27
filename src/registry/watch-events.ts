// Watch events from committed changes, filtered by selectors with kube's crossing semantics: an object that stops
// matching arrives as DELETED, one that starts matching as ADDED.
import type { KubeObject } from '../schema/meta'
import type { ChangeType } from './store'
import type { LabelSelector } from './label-selector'
import type { FieldSelector } from './field-selector'
import type { Strategy } from './strategy'

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'

export interface WatchEvent {
  type: WatchEventType
  object: unknown
}

export interface WatchFilter {
  labelSelector?: LabelSelector
  fieldSelector?: FieldSelector
  strategy: Pick<Strategy, 'selectableFields'>
}

export function matchesFilter(f: WatchFilter, obj: KubeObject): boolean {
  if (f.labelSelector && !f.labelSelector.matches((obj.metadata.labels ?? {}) as Record<string, string>)) return false
  if (f.fieldSelector && !f.fieldSelector.matches(f.strategy.selectableFields(obj))) return false
  return true
}

/** The event a watcher with this filter sees for one change, or null if it sees none. */
export function eventFor(
  f: WatchFilter,
  type: ChangeType,
  object: KubeObject,
  prev: KubeObject | null,
): WatchEvent | null {
  if (!f.labelSelector && !f.fieldSelector) return { type, object }
  const now = type !== 'DELETED' && matchesFilter(f, object)
  const before = prev !== null && matchesFilter(f, prev)
  switch (type) {
    case 'ADDED':
      return now ? { type: 'ADDED', object } : null
    case 'MODIFIED':
      if (now && before) return { type: 'MODIFIED', object }
      if (now) return { type: 'ADDED', object }
      // As kube's cacher: the object the watcher last matched, stamped with this change's resourceVersion.
      if (before)
        return {
          type: 'DELETED',
          object: { ...prev!, metadata: { ...prev!.metadata, resourceVersion: object.metadata.resourceVersion } },
        }
      return null
    case 'DELETED':
      return before || matchesFilter(f, object) ? { type: 'DELETED', object } : null
  }
}

/** A BOOKMARK: an empty object of the watched kind carrying only a resourceVersion (and maybe annotations). */
export function bookmark(kind: string, apiVersion: string, rv: number, initialEventsEnd = false): WatchEvent {
  const metadata: Record<string, unknown> = { resourceVersion: String(rv), creationTimestamp: null }
  if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' }
  return { type: 'BOOKMARK', object: { kind, apiVersion, metadata } }
}
