// Building core/v1 Events for what controllers do (Scheduled, Pulled, Started, Killing...), named as kube names them.
import type { KubeObject } from '../schema/meta'
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
function eventName(objectName: string, now: Date): string {
  const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))
  return `${objectName}.${nanos.toString(16)}`
}

/** The Event recording something about `obj`, as kube's event recorder creates it (the store adds uid and time). */
export function eventAbout(obj: KubeObject, spec: EventSpec, now: Date): KubeObject {
  const ts = rfc3339(now)
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: eventName(obj.metadata.name!, now), namespace: obj.metadata.namespace },
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
    reportingComponent: spec.component,
    reportingInstance: spec.host ?? '',
  }
}
