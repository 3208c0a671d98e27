// A pod's containers' lifecycle hooks where kubelet's kuberuntime runs them: postStart right after a start
// (startContainer's step 4; the pod worker decides what its failure does), and every kill as killContainer does it:
// the Killing event, the preStop hook within the grace period, which it shortens by the whole seconds it took, a
// sidecar's wait for its turn (sidecars.ts), then the stop with what is left, at least 2 s.
import { runHook, type HookTarget } from './lifecycle-hooks.ts'
import type { Obj } from './obj.ts'
import type { HostCommand } from './runtime/runtime.ts'
import type { TerminationOrdering } from './sidecars.ts'

/** What the hooks need of a container (a ContainerRecord). */
export interface HookedContainer {
  readonly spec: Obj
  readonly name: string
  readonly running: boolean
  execIn(command: string[], opts: { stdin: boolean; tty: boolean }): HostCommand
  event(type: 'Normal' | 'Warning', reason: string, message: string): void
  stop(graceMs: number): Promise<void>
}

/** What the hooks need of their pod. */
export interface HooksHost {
  pod(): Obj
  /** The pod's IP: an httpGet hook's host when it names none. */
  podIP: string
  podEvent(type: 'Normal' | 'Warning', reason: string, message: string): void
}

/** kubelet's minimumGracePeriodInSeconds: a container is never stopped with less. */
const MIN_GRACE_SECONDS = 2

export class ContainerHooks<R extends HookedContainer> {
  private readonly postStarts = new Set<AbortController>()
  private readonly killing = new Map<R, Promise<void>>()
  private readonly host: HooksHost

  constructor(host: HooksHost) {
    this.host = host
  }

  /**
   * Runs the container's postStart hook; answers null when it succeeded, else kubelet's message for its failure, and
   * whether it was ended (endPostStarts) rather than failed.
   */
  async postStart(r: R, handler: Obj): Promise<{ failure: string | null; ended: boolean }> {
    const control = new AbortController()
    this.postStarts.add(control)
    try {
      const failure = await runHook(handler, this.target(r, control.signal))
      return { failure, ended: control.signal.aborted }
    } finally {
      this.postStarts.delete(control)
    }
  }

  /** Ends the postStart hooks under way: kubelet cancels a pod's sync when the pod is to be killed. */
  endPostStarts() {
    for (const c of this.postStarts) c.abort()
  }

  /**
   * killContainer: the Killing event (none when `message` is null), preStop, the turn `order` gives it, the stop. A
   * container already being killed is not killed again: this waits for that kill.
   */
  kill(r: R, graceSeconds: number, message: string | null, order?: TerminationOrdering<R>): Promise<void> {
    const under = this.killing.get(r)
    if (under) return under.finally(() => order?.terminated(r))
    // Recorded even for a container that has just ended (a postStart racing its exit), as killContainer records it.
    if (message !== null) r.event('Normal', 'Killing', message)
    if (!r.running) {
      order?.terminated(r)
      return Promise.resolve()
    }
    const killing = (async () => {
      let grace = graceSeconds
      const preStop = r.spec.lifecycle?.preStop as Obj | undefined
      const control = new AbortController()
      if (preStop && grace > 0) grace -= await this.preStop(r, preStop, grace, control.signal)
      if (order && grace > 0) grace -= await order.waitForTurn(r, grace)
      await r.stop(Math.max(grace, MIN_GRACE_SECONDS) * 1000)
      // A preStop hook still running past the grace period goes with its container.
      control.abort()
    })().finally(() => {
      this.killing.delete(r)
      order?.terminated(r)
    })
    this.killing.set(r, killing)
    return killing
  }

  /**
   * executePreStopHook: runs the hook, waiting for it at most `graceSeconds`; a failure is a FailedPreStopHook event
   * without its message (kubelet keeps secrets out of events). Answers the whole seconds it waited.
   */
  private async preStop(r: R, handler: Obj, graceSeconds: number, signal: AbortSignal): Promise<number> {
    const t0 = Date.now()
    const hook = runHook(handler, this.target(r, signal)).then((failure) => {
      if (failure !== null && !signal.aborted) r.event('Warning', 'FailedPreStopHook', 'PreStopHook failed')
    })
    let timer: NodeJS.Timeout | undefined
    await Promise.race([hook, new Promise((resolve) => (timer = setTimeout(resolve, graceSeconds * 1000)))])
    clearTimeout(timer)
    return Math.floor((Date.now() - t0) / 1000)
  }

  private target(r: R, signal: AbortSignal): HookTarget {
    return {
      pod: this.host.pod(),
      container: r.spec,
      podIP: this.host.podIP,
      exec: (command) => {
        // The CRI refuses an exec into a container that has ended (a postStart racing its container's exit).
        if (!r.running) throw new Error('container is in CONTAINER_EXITED state')
        return r.execIn(command, { stdin: false, tty: false })
      },
      podEvent: this.host.podEvent,
      signal,
    }
  }
}
