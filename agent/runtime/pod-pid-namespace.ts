// shareProcessNamespace under the process runtime (and podman, run by root): one PID namespace for a pod's containers,
// held by a process of its own (shim.py --pod-init: what the pause container is to kube's, PID 1 there, reaping),
// which every container of the pod joins (pid-namespace.ts: pidNamespaceOf; podman: `--pid ns:/proc/<pid>/ns/pid`)
// so each sees and may signal the others' processes. The holder is
// recorded in the pod's directory (pidns.json: pid and start time), outlives the agent like the containers' shims,
// is taken over by the next agent, and is killed with the pod (the kernel kills whatever is left in it then).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SHIM } from '../container-process.ts'
import { hostPython } from '../host-tools.ts'
import { sameProcess } from '../run-files.ts'

interface Holder {
  pid: number
  pidStart: number
}

const record = (podDir: string) => join(podDir, 'pidns.json')

function readHolder(podDir: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(record(podDir), 'utf8')) as Holder
    return sameProcess(h.pid, h.pidStart) ? h : null
  } catch {
    return null
  }
}

/**
 * Whether a runtime's containers join the holder: the process runtime's, and podman's when the agent is root (podman
 * joins a namespace by its path; a non-root agent's holder has a user namespace of its own, which rootless podman's
 * containers cannot enter). docker joins containers only: a running container of the pod (pod-worker.ts).
 */
export const sharesHolder = (runtime: string) =>
  runtime === 'process' || (runtime === 'podman' && process.getuid?.() === 0)

/** The engine's own id of a container runtime's run (`docker://<id>`: <id>); none for the process runtime's. */
export const engineID = (containerID: string | undefined) => containerID?.replace(/^[a-z]+:\/\//, '') || undefined

/** The host pid of the pod's shared PID namespace's holder, started now if there is none; an Error: why not. */
export function podPidHolder(podDir: string): number | Error {
  const held = readHolder(podDir)
  if (held) return held.pid
  const r = spawnSync(hostPython(), ['-I', '-S', SHIM, '--pod-init', record(podDir)], {
    encoding: 'utf8',
    timeout: 10_000,
  })
  const made = readHolder(podDir)
  if (made) return made.pid
  return new Error(r.error?.message ?? (r.stderr.trim().split('\n').at(-1) || `exit ${r.status}`))
}

/** Kills the pod's PID namespace holder, and with it whatever still runs in the namespace (the pod is gone). */
export function releasePodPidNamespace(podDir: string) {
  const held = readHolder(podDir)
  if (held)
    try {
      process.kill(held.pid, 'SIGKILL')
    } catch {
      // gone meanwhile
    }
}
