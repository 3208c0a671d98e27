// How a command enters a running container's network namespace (exec, exec probes under the process runtime), judged
// from /proc so a run adopted from an earlier agent is entered the same way: `nsenter --net`, as for its mounts.
import { readlinkSync } from 'node:fs'
import { hostTool } from '../host-tools.ts'

const netOf = (pid: number | 'self') => {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`)
  } catch {
    return null
  }
}

/** The nsenter prefix that runs a command in `pid`'s network namespace, or [] when it shares ours. */
export function netnsPrefix(pid: number | undefined): string[] {
  if (!pid) return []
  const net = netOf(pid)
  if (!net || net === netOf('self')) return []
  return [hostTool('nsenter'), '--target', String(pid), '--net', '--']
}
