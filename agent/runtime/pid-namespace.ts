// Whether the process runtime gives a container a PID namespace of its own (shim.py's container_init: PID 1 of it,
// reaping and passing on signals, the kernel killing everything in it when the init dies), so a process that leaves
// the container's process group (setsid, a daemon) cannot outlive the container. Asked of the shim once; a host that
// refuses it (no CAP_SYS_ADMIN and no user namespaces, a locked /proc) runs containers as process groups, as before.
import { spawnSync } from 'node:child_process'
import { readlinkSync } from 'node:fs'
import { SHIM } from '../container-process.ts'
import { hostPython } from '../host-tools.ts'
import { processStart } from '../run-files.ts'
import type { Obj } from '../obj.ts'
import type { RunSpec } from './runtime.ts'

let support: boolean | undefined

/** Whether this host lets the shim make a PID namespace with its own /proc. */
export function pidNamespaces(): boolean {
  if (support !== undefined) return support
  if (process.platform !== 'linux') return (support = false)
  const r = spawnSync(hostPython(), ['-I', '-S', SHIM, '--can-pidns'], { timeout: 10_000 })
  return (support = r.status === 0)
}

/**
 * The PID namespace a run gets: the one it is given to join where that is not the host's (an ephemeral container's
 * target's, kubectl debug --target: ps there shows the target's processes, as in kube; the pod's shared one,
 * shareProcessNamespace: pod-pid-namespace.ts); else one of its own (ownPidNamespace); else the host's.
 */
export function pidNamespaceOf(spec: RunSpec): { pidns?: true; pidnsOf?: number; pidnsOfStart?: number } {
  const target = spec.targetPid
  // Its start time as the run is planned: the shim joins it only if its pid still names that process (shim.py).
  const start = target ? processStart(target) : 0
  if (target && start && pidNamespaces() && nsOf(target) && nsOf(target) !== nsOf('self'))
    return { pidnsOf: target, pidnsOfStart: start }
  return ownPidNamespace(spec.pod) ? { pidns: true } : {}
}

const nsOf = (pid: number | 'self') => {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`)
  } catch {
    return null
  }
}

/**
 * Whether a container of `pod` runs in a PID namespace of its own: not with hostPID (the host's is the pod's), nor
 * with shareProcessNamespace (the pod's one, which it joins; where that cannot be had, the host's, where the
 * containers see each other too), nor where the host refuses one.
 */
export function ownPidNamespace(pod: Obj | undefined): boolean {
  const spec = (pod?.spec ?? {}) as Obj
  if (spec.hostPID === true || spec.shareProcessNamespace === true) return false
  return pidNamespaces()
}
