// Resolving a pods/log request: which container (kube's rules for the default), and the log query from options.
import { containerProgram } from './container-program'
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

/**
 * Which lines of a simulated container's log are the run asked for: each run of a program that exits writes the
 * program's lines again (src/registry/container-restarts.ts), so run k holds the lines numbered k*n+1 to (k+1)*n
 * (`from` exclusive, `to` inclusive; older runs' lines may be gone). Without
 * `previous` the newest run (kubelet's validateContainerLogStatus: the running, terminated or last terminated
 * container); with it the run in lastState (a 400 when there is none). Undefined: the whole log.
 */
function simulatedRun(
  pod: Obj,
  name: string,
  container: string,
  status: Obj | undefined,
  previous: boolean,
): Result<{ from: number; to: number } | undefined> {
  const spec = [...((pod.spec?.initContainers ?? []) as Obj[]), ...((pod.spec?.containers ?? []) as Obj[])].find(
    (c) => c.name === container,
  )
  const program = spec ? containerProgram(spec.command, spec.args) : null
  const window = (run: number) => {
    if (!program?.exit) return undefined
    const n = program.output.length
    return { from: run * n, to: (run + 1) * n }
  }
  const restarts = (status?.restartCount ?? 0) as number
  if (previous) {
    if (!status?.lastState?.terminated?.containerID)
      return fail(statuses.badRequest(`previous terminated container "${container}" in pod "${name}" not found`))
    // Waiting to start again, the run that ended is both the newest and the one in lastState.
    return ok(window(status.state?.waiting ? restarts : restarts - 1))
  }
  return ok(restarts === 0 ? undefined : window(restarts))
}

export function podLogRequest(
  current: Stored | null,
  name: string,
  o: PodLogOptions,
): Result<{
  uid: string
  container: string
  query: LogQuery
  lines?: { from: number; to: number }
  /** The container's run read is over (it exited; it may wait to start again): a follow ends with what it read. */
  ended: boolean
}> {
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
  const cs = [
    ...((pod.status?.containerStatuses ?? []) as Obj[]),
    ...((pod.status?.initContainerStatuses ?? []) as Obj[]),
  ].find((s) => s.name === container)
  const run = simulatedRun(pod, name, container!, cs, o.previous === true)
  if (!run.ok) return run
  const phase = pod.status?.phase ?? 'Pending'
  if (phase === 'Pending' && !cs) {
    return fail(statuses.badRequest(`container "${container}" in pod "${name}" is waiting to start: ContainerCreating`))
  }
  const query: LogQuery = { timestamps: o.timestamps, tailLines: o.tailLines, limitBytes: o.limitBytes }
  if (o.sinceSeconds !== undefined) query.since = Date.now() - o.sinceSeconds * 1000
  else if (o.sinceTime) query.since = Date.parse(o.sinceTime)
  // Only a program that exits ends; a simulated init container that is not a sidecar completes at once and is done.
  const ended = o.previous === true || (cs !== undefined && !cs.state?.running && phase === 'Running')
  return ok({ uid: pod.metadata.uid as string, container: container!, query, lines: run.value, ended })
}
