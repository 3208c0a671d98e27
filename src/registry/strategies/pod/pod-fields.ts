// The pod fields a field selector may name (core/v1 pod conversion's field label map).
import type { PodObject } from './pod-types'
import type { PodSpec, PodStatus } from '../../../schema/pod'

export const POD_FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
  // The v1beta1-era alias of spec.nodeName, still accepted.
  'spec.host',
] as const

export function podSelectableFields(pod: PodObject): Record<string, string> {
  const spec: Partial<PodSpec> = pod.spec ?? {}
  const status: PodStatus = pod.status ?? {}
  return {
    'metadata.name': pod.metadata.name ?? '',
    'metadata.namespace': pod.metadata.namespace ?? '',
    'spec.nodeName': spec.nodeName ?? '',
    'spec.host': spec.nodeName ?? '',
    'spec.restartPolicy': spec.restartPolicy ?? '',
    'spec.schedulerName': spec.schedulerName ?? '',
    'spec.serviceAccountName': spec.serviceAccountName ?? '',
    'spec.hostNetwork': spec.hostNetwork ? 'true' : 'false',
    'status.phase': status.phase ?? '',
    'status.podIP': status.podIP ?? '',
    'status.podIPs': (status.podIPs ?? []).map((p: { ip: string }) => p.ip).join(','),
    'status.nominatedNodeName': status.nominatedNodeName ?? '',
  }
}
