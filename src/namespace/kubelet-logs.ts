// The simulated kubelet's container output: the lines of programs that exit (src/registry/container-program.ts) are
// written to the pod's log as their time comes, each run of a restarted container writing them again after the
// earlier runs' (counted by line number from the run's first).
import { containerProgram } from '../registry/container-program'
import type { RestartDeps } from './kubelet-restarts'

type Obj = Record<string, any>

/**
 * Writes the program output lines whose time has come; answers when the next one falls due. A container's lines are
 * counted from its current run's start (a restarted container writes its program's lines again, after its
 * earlier runs').
 */
export function writeDueLogs(
  sink: Pick<RestartDeps, 'lastSeq' | 'log'>,
  pod: Obj,
  startTime: number,
  now: number,
): number | null {
  const uid = pod.metadata.uid as string
  let next: number | null = null
  for (const c of [...((pod.spec?.initContainers ?? []) as Obj[]), ...((pod.spec?.containers ?? []) as Obj[])]) {
    const program = containerProgram(c.command, c.args)
    if (!program.exit || program.output.length === 0) continue
    // A sidecar's status is among the init containers'; an init container that ran to completion has no runs after.
    const status = [
      ...((pod.status?.containerStatuses ?? []) as Obj[]),
      ...((pod.status?.initContainerStatuses ?? []) as Obj[]),
    ].find((s) => s.name === c.name)
    const run = status?.restartCount ?? 0
    const runStart = status?.state?.running?.startedAt ? Date.parse(status.state.running.startedAt) : startTime
    const base = run * program.output.length
    const written = Math.max(0, sink.lastSeq(uid, c.name) - base)
    const due = program.output.slice(written).filter((o) => runStart + o.at * 1000 <= now)
    if (due.length)
      sink.log(
        uid,
        c.name,
        due.map((o) => o.line),
        new Date(Math.min(now, Date.now())),
      )
    const pending = program.output[written + due.length]
    if (pending) {
      const at = runStart + pending.at * 1000
      next = next === null ? at : Math.min(next, at)
    }
  }
  return next
}
