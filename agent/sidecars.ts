// Native sidecars (init containers with restartPolicy: Always) as kubelet 1.33 runs them: the init step of its
// computeInitContainerActions (a sidecar starts in its order, the next init container once it has started and passed
// its startup probe, and it is started again whenever it exits, whatever the pod's restartPolicy) and the order of
// newTerminationOrdering (the other containers stop first, then the sidecars, last one first, on what is left of the
// pod's grace period).
import type { Obj } from './obj.ts'

/** What the init step needs of a container (a ContainerRecord). */
export interface InitContainer {
  readonly spec: Obj
  readonly running: boolean
  /** Running and past its startup probe. */
  readonly started: boolean
  readonly attempts: number
  readonly current: { exitCode: number } | null
  readonly waiting: { reason: string } | null
}

export interface InitRunner<R extends InitContainer> {
  /** A first run (or one whose creation failed): start it. */
  start(r: R): Promise<void>
  /** A run that ended: start it again once its back-off has passed. */
  restart(r: R): Promise<void>
}

export const isSidecar = (spec: Obj) => spec.restartPolicy === 'Always'

/** Never ran, or its creation failed (CreateContainerError, CreateContainerConfigError): it has no run to back off. */
const fresh = (r: InitContainer) => r.attempts === 0 || r.waiting?.reason.startsWith('CreateContainer') === true

/**
 * One pass over the init containers, in order. Before the pod has initialized, a regular init container runs to
 * completion before the next one starts and a sidecar only has to have started; afterwards only the sidecars are
 * kept running. Answers 'initialized' once the regular containers may run, 'failed' when a regular init container
 * failed under restartPolicy Never.
 */
export async function stepInit<R extends InitContainer>(
  init: readonly R[],
  policy: string,
  initializedBefore: boolean,
  run: InitRunner<R>,
): Promise<'initialized' | 'waiting' | 'failed'> {
  for (const r of init) {
    if (isSidecar(r.spec)) {
      if (!r.running) {
        if (fresh(r)) await run.start(r)
        // Its exit is recorded a moment after the process ends (the pod worker syncs again then).
        else if (r.current) await run.restart(r)
      }
      if (!initializedBefore && !r.started) return 'waiting'
      continue
    }
    if (initializedBefore) continue
    if (r.running) return 'waiting'
    if (r.current?.exitCode === 0 && !r.waiting) continue
    if (fresh(r)) await run.start(r)
    else if (policy === 'Never') return 'failed'
    else if (r.current) await run.restart(r)
    return 'waiting'
  }
  return 'initialized'
}

/**
 * kubelet's terminationOrdering: a pod's containers are all killed at once (each runs its preStop hook at once), and a
 * sidecar is stopped only once the other containers and the sidecars after it have stopped, or its grace period ran
 * out waiting for them.
 */
export class TerminationOrdering<R> {
  private readonly ended = new Map<R, { done: Promise<void>; end: () => void }>()
  private readonly prereqs = new Map<R, R[]>()

  /** `others`: the running containers that are not sidecars; `sidecars`: the running sidecars, in the spec's order. */
  constructor(others: readonly R[], sidecars: readonly R[]) {
    for (const r of [...others, ...sidecars]) {
      const { promise, resolve } = Promise.withResolvers<void>()
      this.ended.set(r, { done: promise, end: resolve })
    }
    sidecars.forEach((r, i) => this.prereqs.set(r, [...others, ...sidecars.slice(i + 1)]))
  }

  /** Waits for `r`'s turn, at most `graceSeconds`; answers the whole seconds waited (kubelet truncates them). */
  async waitForTurn(r: R, graceSeconds: number): Promise<number> {
    const before = this.prereqs.get(r)
    if (!before?.length || graceSeconds <= 0) return 0
    const t0 = Date.now()
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceSeconds * 1000)))
    await Promise.race([Promise.all(before.map((x) => this.ended.get(x)!.done)), expired])
    clearTimeout(timer)
    return Math.floor((Date.now() - t0) / 1000)
  }

  /** `r` has stopped: the sidecars waiting for it may go on. */
  terminated(r: R) {
    this.ended.get(r)?.end()
  }
}
