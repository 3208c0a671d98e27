// kube's pod control for the Job controller (controller.RealPodControl and the finalizer patches): pods deleted with
// their SuccessfulDelete events, the batch.kubernetes.io/job-tracking finalizer removed, each write re-checked against
// the pod it was meant for (a new pod of the same name is left alone).
import type { ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import type { KubeObject } from '../schema/meta'
import { JOB_TRACKING_FINALIZER, type JobObject } from '../registry/batch/job-labels'
import { hasTrackingFinalizer } from '../registry/batch/job-pods'
import { CONTROLLER_MANAGER, isReady } from './pod-owner'

export const JOB_COMPONENT = 'job-controller'

/** Removes the tracking finalizer; answers whether the pod is now without it (a pod that is gone has none left). */
export async function removeFinalizer(host: ControllerHost, pod: KubeObject): Promise<boolean> {
  const r = await host.update(
    'pods',
    pod.metadata.name!,
    (current) => {
      if (current.metadata.uid !== pod.metadata.uid || !hasTrackingFinalizer(current)) return null
      const finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER)
      current.metadata.finalizers = finalizers
      if (finalizers.length === 0) delete current.metadata.finalizers
      return current
    },
    { fieldManager: CONTROLLER_MANAGER },
  )
  // A pod that is gone has no finalizer left either.
  if (!r.ok && r.status.code !== 404) {
    console.error(
      `job controller: removing the tracking finalizer of ${host.scope}/${pod.metadata.name}`,
      r.status.message,
    )
    return false
  }
  return true
}

/**
 * deleteJobPods (release: the tracking finalizer goes first, so the pod is not counted as a failure) or
 * deleteActivePods (the finalizer stays until the pod is counted). Answers how many were deleted, and of them ready.
 */
export async function deletePods(host: ControllerHost, job: JobObject, pods: KubeObject[], release: boolean) {
  const results = await Promise.all(
    pods.map(async (pod) => {
      if (release && hasTrackingFinalizer(pod) && !(await removeFinalizer(host, pod))) return false
      const r = await host.delete('pods', pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } })
      if (!r.ok) return r.status.code === 404
      await recordEvent(host, job, {
        type: 'Normal',
        reason: 'SuccessfulDelete',
        message: `Deleted pod: ${pod.metadata.name}`,
        component: JOB_COMPONENT,
      })
      return true
    }),
  )
  return {
    deleted: results.filter(Boolean).length,
    ready: pods.filter((p, i) => results[i] && isReady(p)).length,
  }
}
