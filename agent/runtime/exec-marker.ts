// The processes one `docker/podman exec` started in a container, found by a variable the exec gives them
// (KUBEFLARE_EXEC=<random>) in /proc/<pid>/environ, and ended: killing the exec client ends the client only, while
// the kubelet's CRI ends the exec'd process when an exec probe's timeout or a hook's end comes (ExecSync with a timeout).
// The engine runs on this host, so its containers' processes are this host's (the agent reads and kills them as root,
// or as the user a rootless podman runs them as).
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'

export const EXEC_MARKER = 'KUBEFLARE_EXEC'

/** A new marker for one exec (its NAME=VALUE for `exec -e`). */
export const newMarker = () => `${EXEC_MARKER}=${randomBytes(12).toString('hex')}`

/** The pids of this host whose environment holds `marker` (NAME=VALUE). */
export function markedProcesses(marker: string): number[] {
  const found: number[] = []
  let pids: string[] = []
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n))
  } catch {
    return []
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)) found.push(Number(pid))
    } catch {
      // gone, or not ours to read
    }
  }
  return found
}

/** SIGKILLs every process that carries `marker` (the exec'd command and what it started). */
export function killMarked(marker: string): number {
  let killed = 0
  for (const pid of markedProcesses(marker)) {
    try {
      process.kill(pid, 'SIGKILL')
      killed++
    } catch {
      // gone meanwhile
    }
  }
  return killed
}
