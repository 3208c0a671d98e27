// Resolving a pods/log request: which container (kube's rules for the default), and the log query from options.
import type { Stored } from './store'
import { fail, ok, statuses, type Result } from './status'

/** What part of a container's log to answer. */
export interface LogQuery {
  tailLines?: number
  /** Only lines at or after this time (ms since epoch). */
  since?: number
  limitBytes?: number
  timestamps?: boolean
}

type Obj = Record<string, any>

export interface PodLogOptions {
  container?: string
  tailLines?: number
  sinceSeconds?: number
  sinceTime?: string
  limitBytes?: number
  timestamps?: boolean
  previous?: boolean
}

/** kube's validateContainer refusal: every container of the pod, init containers first. */
export function chooseContainer(pod: Obj, name: string) {
  const names = [...((pod.spec?.initContainers ?? []) as Obj[]), ...((pod.spec?.containers ?? []) as Obj[])].map(
    (c) => c.name as string,
  )
  return statuses.badRequest(`a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`)
}

export function podLogRequest(
  current: Stored | null,
  name: string,
  o: PodLogOptions,
): Result<{ uid: string; container: string; query: LogQuery }> {
  if (!current) return fail(statuses.notFound({ resource: 'pods' }, name))
  const pod = current.object as Obj
  const all = [
    ...((pod.spec?.initContainers ?? []) as Obj[]),
    ...((pod.spec?.containers ?? []) as Obj[]),
    ...((pod.spec?.ephemeralContainers ?? []) as Obj[]),
  ].map((c) => c.name as string)
  let container = o.container
  if (!container) {
    const regular = ((pod.spec?.containers ?? []) as Obj[]).map((c) => c.name as string)
    const preferred = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] as string | undefined
    if (preferred && all.includes(preferred)) container = preferred
    else if (regular.length === 1) container = regular[0]
    else return fail(chooseContainer(pod, name))
  }
  if (!all.includes(container!)) {
    return fail(statuses.badRequest(`container ${container} is not valid for pod ${name}`))
  }
  if (o.previous) {
    return fail(statuses.badRequest(`previous terminated container "${container}" in pod "${name}" not found`))
  }
  const phase = pod.status?.phase ?? 'Pending'
  const cs = [
    ...((pod.status?.containerStatuses ?? []) as Obj[]),
    ...((pod.status?.initContainerStatuses ?? []) as Obj[]),
  ].find((s) => s.name === container)
  if (phase === 'Pending' && !cs) {
    return fail(statuses.badRequest(`container "${container}" in pod "${name}" is waiting to start: ContainerCreating`))
  }
  const query: LogQuery = { timestamps: o.timestamps, tailLines: o.tailLines, limitBytes: o.limitBytes }
  if (o.sinceSeconds !== undefined) query.since = Date.now() - o.sinceSeconds * 1000
  else if (o.sinceTime) query.since = Date.parse(o.sinceTime)
  return ok({ uid: pod.metadata.uid as string, container: container!, query })
}
