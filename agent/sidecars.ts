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

/** kubelet's minimumGracePeriodInSeconds: a container stopped in its turn gets at least this. */
const MIN_GRACE_MS = 2000

/**
 * Stops a pod's containers in kube's termination order: every container but the sidecars at once (regular, init and
 * ephemeral ones), then each sidecar once those and the sidecars after it have stopped, with the grace period less the
 * whole seconds already waited.
 */
export async function stopInOrder<R extends { readonly spec: Obj }>(
  others: readonly R[],
  sidecars: readonly R[],
  graceMs: number,
  stop: (r: R, graceMs: number) => Promise<void>,
): Promise<void> {
  const t0 = Date.now()
  await Promise.all(others.map((r) => stop(r, graceMs)))
  for (const r of [...sidecars].reverse()) {
    const waited = Math.floor((Date.now() - t0) / 1000) * 1000
    await stop(r, graceMs <= 0 ? graceMs : Math.max(graceMs - waited, MIN_GRACE_MS))
  }
}
