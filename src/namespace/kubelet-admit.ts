// The simulated kubelet's admission of a pod it is about to start (kube 1.33's predicateAdmitHandler, decided in
// src/registry/kubelet-admission.ts), and the pod's address. The checks of the pod alone run here for every pod; a pod
// the scheduler placed (its address in the book) fit its node then; any other is judged by the cluster object against
// the node's admitted pods, in the same call that gives its address (kubelet-pod-ips.ts). A rejected pod is made
// Failed as kubelet.rejectPod does: its status, then a Warning event; its reservation goes as any Failed pod's (the
// scheduler side releases it on that commit).
import type { ClusterApi, NodeFacts, PodAddresses } from '../cluster/cluster-api'
import type { ControllerHost } from '../host/controller'
import { podRejection, type Rejection, rejectedStatus } from '../registry/kubelet-admission'
import type { Stored } from '../registry/store'
import { rfc3339 } from '../registry/time'
import type { KubeObject } from '../schema/meta'
import type { PodIpRequests } from './kubelet-pod-ips'
import type { RestartDeps } from './kubelet-restarts'
import type { PodAddressBook } from './pod-address-book'
import { podKey, scheduleRequest } from './schedule-request'
import { terminal } from './scheduler-pods'

type Obj = Record<string, any>

export interface AdmitDeps extends Pick<RestartDeps, 'writeStatus' | 'event'> {
  cluster: () => ClusterApi
  addresses: PodAddressBook
  requests: PodIpRequests
}

/** The addresses of a pod admitted to start; null when it was rejected (and marked so) or has no address yet. */
export async function admitToStart(
  deps: AdmitDeps,
  host: ControllerHost,
  current: Stored,
  facts: NodeFacts,
): Promise<PodAddresses | null> {
  const pod = current.object as Obj
  const key = podKey(current.object)
  const refused = podRejection(pod, facts.features)
  if (refused) return reject(deps, host, current, facts, refused)
  const booked = deps.addresses.take(key)
  if (booked) return booked
  const answer = await deps.requests.admissionOf({ ...scheduleRequest(host, current.object), node: facts.name })
  await releaseIfGone(deps, host, current.object)
  if (answer && 'rejected' in answer) return reject(deps, host, current, facts, answer.rejected)
  return answer?.addresses ?? null
}

/** kubelet.rejectPod: the pod Failed (rejectedStatus) while it is still Pending, and a Warning event. */
async function reject(
  deps: AdmitDeps,
  host: ControllerHost,
  current: Stored,
  facts: NodeFacts,
  r: Rejection,
): Promise<null> {
  const pod = current.object as Obj
  const written = await deps.writeStatus(host, pod.metadata.name, pod.metadata.uid, (p) =>
    (p.status?.phase ?? 'Pending') === 'Pending' && !p.metadata.deletionTimestamp
      ? rejectedStatus(p.status, r, rfc3339(new Date()))
      : null,
  )
  if (written) await deps.event(host, written.object, facts, 'Warning', r.reason, r.message)
  return null
}

/**
 * The cluster object records a pod it was asked to admit if its assumePod had not come yet; a pod deleted or ended
 * while that call was under way gives the room back (the release its commit asked for may have come first).
 */
async function releaseIfGone(deps: AdmitDeps, host: ControllerHost, pod: KubeObject): Promise<void> {
  const now = host.get('pods', pod.metadata.name!)?.object as Obj | undefined
  const same = now?.metadata.uid === pod.metadata.uid
  if (same && !terminal(now)) return
  await deps.cluster().releasePod(podKey(pod), same)
}
