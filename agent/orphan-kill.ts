// Containers of pods the API no longer has when an agent starts (deleted while no agent ran) stopped as kubelet stops
// them: kubelet reads what killing needs back from its container's labels and annotations
// (restoreSpecsFromContainerLabels: the preStop handler, the ports, the pod's grace periods) and runs killContainer.
// Each run records the same here when it starts (<container dir>/kill.json), and an agent that starts adopts such a
// run and kills it with its preStop hook, SIGTERM and the grace period, instead of a SIGKILL.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { ContainerHooks, type HookedContainer } from './container-hooks.ts'
import { ContainerProcess } from './container-process.ts'
import type { Obj } from './obj.ts'
import { recordedAttempts } from './run-files.ts'
import type { ContainerRuntime } from './runtime/runtime.ts'

/** What killing a container needs once its pod is gone. */
export interface KillSpec {
  pod: { name: string; namespace: string; uid: string }
  podIP: string
  container: { name: string; ports?: Obj[]; preStop?: Obj; stdin?: boolean }
  /** The pod's deletionGracePeriodSeconds, else its terminationGracePeriodSeconds, when the run started. */
  graceSeconds: number
  /** The working directory exec hooks run in. */
  cwd: string
}

const file = (dir: string) => join(dir, 'kill.json')

/** Records, beside a container's runs, how to kill them without their pod. */
export function recordKillSpec(dir: string, spec: KillSpec) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(file(dir), JSON.stringify(spec))
}

function readKillSpec(dir: string): KillSpec | null {
  try {
    return JSON.parse(readFileSync(file(dir), 'utf8')) as KillSpec
  } catch {
    return null
  }
}

/**
 * Kills the latest run in a container's directory when it still runs and its kill was recorded: preStop, then the
 * stop with what is left of the grace period (container-hooks.ts). Answers whether it stopped one.
 */
export async function killOrphan(dir: string, runtime: ContainerRuntime): Promise<boolean> {
  const spec = readKillSpec(dir)
  const attempt = recordedAttempts(dir).at(-1)
  if (!spec || attempt === undefined) return false
  const logFile = join(dir, `${attempt}.log`)
  const found = ContainerProcess.adopt(logFile, spec.container.stdin === true)
  if (!(found instanceof ContainerProcess)) return false
  // A shim still starting the run: its preStop execs into the run once recorded (before, an exec is refused). One
  // that records nothing within the grace period (stuck) is left to the kill of what is recorded (killRecordedRuns).
  const limit = delay(spec.graceSeconds * 1000, false, { ref: false })
  if (!(await Promise.race([found.spawned, limit]))) return false
  const run = runtime.adopt?.(found, logFile) ?? found
  const env = found.environment() ?? {}
  const container: HookedContainer = {
    spec: { ...spec.container, ...(spec.container.preStop ? { lifecycle: { preStop: spec.container.preStop } } : {}) },
    name: spec.container.name,
    get running() {
      return run.running
    },
    execIn: (command, opts) => runtime.exec(run, { env, cwd: spec.cwd, dir }, command, opts),
    // The pod is gone: nothing to record events on.
    event: () => undefined,
    stop: async (graceMs) => {
      await run.stop(graceMs)
    },
  }
  const hooks = new ContainerHooks({
    pod: () => ({ metadata: spec.pod }),
    podIP: spec.podIP,
    podEvent: () => undefined,
  })
  await hooks.kill(container, spec.graceSeconds, null)
  return true
}
