// Building core/v1 Events for what controllers do (Scheduled, Pulled, Started, Killing...), named as kube names them.
import type { KubeObject } from '../schema/meta'
import type { Change, Stored } from './store'
import { rfc3339 } from './time'

export interface EventSpec {
  type: 'Normal' | 'Warning'
  reason: string
  message: string
  component: string
  host?: string
  fieldPath?: string
}

/** `<object>.<hex>`, unique per occurrence like kube's timestamp-derived suffix. */
export function eventName(objectName: string, now: Date): string {
  const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))
  return `${objectName}.${nanos.toString(16)}`
}

/**
 * The change recording an event about `obj`. A repeat of the same reason and message about the same object bumps
 * the existing event's count instead of creating another, as kube's event correlator does.
 */
export function eventChange(obj: KubeObject, spec: EventSpec, now: Date, existing: Stored | null, name: string): Change {
  const ts = rfc3339(now)
  if (existing) {
    const prev = structuredClone(existing.object)
    delete prev.metadata.resourceVersion
    const next = structuredClone(prev) as KubeObject & { count?: number; lastTimestamp?: string }
    next.count = (next.count ?? 1) + 1
    next.lastTimestamp = ts
    return { type: 'MODIFIED', resource: 'events', namespace: obj.metadata.namespace ?? '', name, object: next, prev, prevRv: existing.rv }
  }
  const event: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: obj.metadata.namespace, uid: crypto.randomUUID(), creationTimestamp: ts },
    involvedObject: {
      kind: obj.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
      uid: obj.metadata.uid,
      apiVersion: obj.apiVersion,
      resourceVersion: obj.metadata.resourceVersion,
      ...(spec.fieldPath ? { fieldPath: spec.fieldPath } : {}),
    },
    reason: spec.reason,
    message: spec.message,
    source: spec.host ? { component: spec.component, host: spec.host } : { component: spec.component },
    firstTimestamp: ts,
    lastTimestamp: ts,
    count: 1,
    type: spec.type,
    eventTime: null,
    reportingComponent: spec.component,
    reportingInstance: spec.host ?? '',
  }
  delete (event as Record<string, unknown>).eventTime
  return { type: 'ADDED', resource: 'events', namespace: obj.metadata.namespace ?? '', name, object: event, prev: null, prevRv: null }
}
