// Running iproute2's `ip` and `iptables` for the bridge pod network: synchronous (each is a few milliseconds), their
// failure an error carrying the command and what it printed.
import { execFileSync } from 'node:child_process'

export class NetworkError extends Error {}

/** Runs `cmd args`; answers its output, or throws NetworkError with its stderr. */
export function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 })
  } catch (e) {
    const err = e as { stderr?: string; message: string }
    throw new NetworkError(`${cmd} ${args.join(' ')}: ${(err.stderr || err.message).trim()}`)
  }
}

/** Whether `cmd args` succeeds (a check such as `iptables -C`). */
export function succeeds(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 10_000 })
    return true
  } catch {
    return false
  }
}

/** Adds an iptables rule unless it is there (`-C` first): rules are idempotent across agent restarts. */
export function ensureRule(table: string, chain: string, rule: string[], insert = false) {
  if (succeeds('iptables', ['-w', '-t', table, '-C', chain, ...rule])) return
  run('iptables', ['-w', '-t', table, insert ? '-I' : '-A', chain, ...(insert ? ['1'] : []), ...rule])
}

/** Removes every copy of an iptables rule. */
export function deleteRule(table: string, chain: string, rule: string[]) {
  while (succeeds('iptables', ['-w', '-t', table, '-D', chain, ...rule])) {}
}
