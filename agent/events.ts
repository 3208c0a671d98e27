// Events about pods as the kubelet records them (component kubelet, host the node), posted without waiting: an event
// that cannot be written is only logged, as client-go's recorder drops it.
import { randomBytes } from 'node:crypto'
import type { KubeClient } from './kube-client.ts'
import { rfc3339 } from './time.ts'
import type { Obj } from './obj.ts'

export type EventFn = (
  pod: Obj,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  fieldPath?: string,
) => void

export function eventRecorder(client: KubeClient, node: string, log: (msg: string) => void): EventFn {
  return (pod, type, reason, message, fieldPath) => {
    const ns = pod.metadata.namespace as string
    const now = rfc3339()
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${pod.metadata.name}.${randomBytes(8).toString('hex')}`, namespace: ns },
      involvedObject: {
        kind: 'Pod',
        namespace: ns,
        name: pod.metadata.name,
        uid: pod.metadata.uid,
        apiVersion: 'v1',
        resourceVersion: pod.metadata.resourceVersion,
        ...(fieldPath ? { fieldPath } : {}),
      },
      reason,
      message,
      source: { component: 'kubelet', host: node },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      reportingComponent: 'kubelet',
      reportingInstance: node,
    }
    client
      .request('POST', `/api/v1/namespaces/${ns}/events`, body)
      .catch((e: unknown) =>
        log(`event ${reason} for ${ns}/${pod.metadata.name} not recorded: ${(e as Error).message}`),
      )
  }
}
