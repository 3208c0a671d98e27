// The simulated kubelet's step for containers whose programs exit (decided by src/registry/container-restarts.ts):
// the statuses of the containers that ended, started again or wait out their back-off, written through pods/status
// with ContainersReady and Ready to match, then the kubelet's events (Pulled, Created, Started; BackOff) and the ended
// runs' remaining log lines.
import type { NodeFacts } from '../cluster/cluster-api'
import type { ControllerHost } from '../host/controller'
import { containerProgram } from '../registry/container-program'
import { stepContainers } from '../registry/container-restarts'
import { desiredReady, setConditions } from '../registry/pod-lifecycle'
import { containerID } from '../registry/simulated-ids'
import type { Stored } from '../registry/store'
import type { KubeObject } from '../schema/meta'

type Obj = Record<string, any>

/** The kubelet's own writes this step makes. */
export interface RestartDeps {
  writeStatus(host: ControllerHost, name: string, uid: string, next: (pod: Obj) => Obj | null): Promise<Stored | null>
  event(
    host: ControllerHost,
    pod: KubeObject,
    facts: NodeFacts,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    fieldPath?: string,
  ): Promise<unknown>
  /** How many lines a container has ever logged (its last line's number). */
  lastSeq(uid: string, container: string): number
  /** Drops a container's log lines up to this number. */
  dropThrough(uid: string, container: string, seq: number): void
  log(uid: string, container: string, lines: string[], at: Date): void
  /** A run of the container ended: its log followers are done. */
  runEnded(uid: string, container: string): void
}

/**
 * Containers whose programs exit end, restart or wait out their back-off (src/registry/container-restarts.ts),
 * written through pods/status with ContainersReady and Ready to match, with the kubelet's events and the ended
 * runs' remaining log lines. Answers the pod as written (when it was) and when the next exit or restart falls due.
 */
export async function stepRestarts(
  deps: RestartDeps,
  host: ControllerHost,
  pod: Obj,
  facts: NodeFacts,
  now: number,
): Promise<{ pod: Obj | null; due: number | null }> {
  const uid = pod.metadata.uid as string
  const idOf = (name: string, run: number) => containerID(uid, run === 0 ? name : `${name}/${run}`)
  const steps = stepContainers(pod, now, idOf)
  if (!steps.changed) return { pod: null, due: steps.due }
  // What the write made of the newest pod is what the events and logs follow.
  let applied = steps
  const written = await deps.writeStatus(host, pod.metadata.name, uid, (p) => {
    if (p.status?.phase !== 'Running') return null
    const again = stepContainers(p, now, idOf)
    if (!again.changed) return null
    applied = again
    const status = { ...p.status, containerStatuses: again.statuses }
    if (again.initStatuses.length) status.initContainerStatuses = again.initStatuses
    const conditions = desiredReady({ ...p, status }, new Date())
    if (conditions) status.conditions = setConditions(status.conditions, conditions)
    return status
  })
  if (!written) return { pod: null, due: steps.due }
  for (const { name, run } of applied.exits) flushRun(deps, pod, name, run)
  for (const name of new Set(applied.exits.map((e) => e.name))) deps.runEnded(uid, name)
  const events: Promise<unknown>[] = []
  for (const name of new Set(applied.restarted)) {
    const { spec: c, path } = specOf(pod, name)!
    const pulled =
      c.imagePullPolicy === 'Always'
        ? `Successfully pulled image "${c.image}"`
        : `Container image "${c.image}" already present on machine`
    events.push(
      deps.event(host, written.object, facts, 'Normal', 'Pulled', pulled, path),
      deps.event(host, written.object, facts, 'Normal', 'Created', `Created container: ${name}`, path),
      deps.event(host, written.object, facts, 'Normal', 'Started', `Started container ${name}`, path),
    )
  }
  const podRef = `${pod.metadata.name}_${pod.metadata.namespace}(${uid})`
  for (const name of new Set(applied.backedOff.map((b) => b.name))) {
    events.push(
      deps.event(
        host,
        written.object,
        facts,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${name} in pod ${podRef}`,
        specOf(pod, name)!.path,
      ),
    )
  }
  await Promise.all(events)
  return { pod: written.object as Obj, due: applied.due }
}

/** The output lines of a run that ended and were not written yet (each run writes its program's lines again). */
function flushRun(deps: RestartDeps, pod: Obj, name: string, run: number) {
  const found = specOf(pod, name)
  if (!found) return
  const output = containerProgram(found.spec.command, found.spec.args).output
  const uid = pod.metadata.uid as string
  const have = deps.lastSeq(uid, name) - run * output.length
  if (output.length > 0 && have < output.length)
    deps.log(
      uid,
      name,
      output.slice(Math.max(0, have)).map((o) => o.line),
      new Date(),
    )
  // The run before this one is no longer the previous one: kubelet keeps the current and previous containers' logs.
  if (run > 0 && output.length > 0) deps.dropThrough(uid, name, run * output.length)
}

/** A container of the pod by name, with the field path its events name (a sidecar is an init container). */
function specOf(pod: Obj, name: string): { spec: Obj; path: string } | null {
  const init = ((pod.spec?.initContainers ?? []) as Obj[]).find((c) => c.name === name)
  if (init) return { spec: init, path: `spec.initContainers{${name}}` }
  const c = ((pod.spec?.containers ?? []) as Obj[]).find((x) => x.name === name)
  return c ? { spec: c, path: `spec.containers{${name}}` } : null
}
