// Whether the process runtime can give a container a mount namespace of its own (where its volumes are bind-mounted:
// shim.py's enter_mounts), asked of the shim once; and how a command enters a running container's namespace (exec,
// exec probes: nsenter), judged from /proc so a run adopted from an earlier agent is entered the same way.
import { spawnSync } from 'node:child_process'
import { existsSync, readlinkSync } from 'node:fs'
import { SHIM } from '../container-process.ts'
import { hostPython, hostTool } from '../host-tools.ts'

let support: string | null | undefined

/** null when mounts work here; else why not (the container's CreateContainerConfigError message). */
export function mountNamespaceUnsupported(): string | null {
  if (support !== undefined) return support
  if (process.platform !== 'linux')
    return (support = `the process runtime cannot mount volumes on ${process.platform}: it needs Linux mount namespaces`)
  const r = spawnSync(hostPython(), ['-I', '-S', SHIM, '--can-mount'], { encoding: 'utf8', timeout: 10_000 })
  support =
    r.status === 0
      ? null
      : `the process runtime cannot mount volumes on this node: it may not create a mount namespace${process.getuid?.() === 0 ? '' : ' (nor a user namespace, as it is not root)'}`
  return support
}

const nsOf = (pid: number | 'self', kind: string) => {
  try {
    return readlinkSync(`/proc/${pid}/ns/${kind}`)
  } catch {
    return null
  }
}

/**
 * The nsenter prefix that runs a command inside `pid`'s mount namespace (and user namespace, and PID namespace: a
 * container with one has its own /proc, so ps there shows its processes), or [] if it shares ours.
 */
export function enterPrefix(pid: number | undefined, cwd: string): string[] {
  if (!pid) return []
  const mnt = nsOf(pid, 'mnt')
  if (!mnt || mnt === nsOf('self', 'mnt')) return []
  const user = nsOf(pid, 'user') !== nsOf('self', 'user')
  const pidns = nsOf(pid, 'pid') !== nsOf('self', 'pid')
  // The container's working directory, unless a volume hides it in there (one mounted over the agent's data
  // directory): then the directory its process holds, which no mount can hide.
  const wd = existsSync(`/proc/${pid}/root${cwd}`) ? `--wd=${cwd}` : '--wd'
  return [
    hostTool('nsenter'),
    '--target',
    String(pid),
    ...(user ? ['--user', '--preserve-credentials'] : []),
    ...(pidns ? ['--pid'] : []),
    '--mount',
    wd,
    '--',
  ]
}
