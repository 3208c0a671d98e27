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

/** An `iptables -S` line's words, its double-quoted ones (a comment, `\"` inside) unquoted. */
export function ruleWords(line: string): string[] {
  const words: string[] = []
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!)
  return words
}

/**
 * The rules of a table whose comment `wanted` accepts, each as its chain and the words after it (what `-D <chain>`
 * takes), read from `iptables -S`: rules are found by their comment, whatever else they say.
 */
export function commentedRules(table: string, wanted: (comment: string) => boolean): [string, string[]][] {
  const out: [string, string[]][] = []
  for (const line of run('iptables', ['-w', '-t', table, '-S']).split('\n')) {
    const words = ruleWords(line)
    const at = words.indexOf('--comment')
    if (words[0] !== '-A' || at < 0 || !wanted(words[at + 1] ?? '')) continue
    out.push([words[1]!, words.slice(2)])
  }
  return out
}

/** Removes every rule of a table whose comment `wanted` accepts. */
export function deleteCommented(table: string, wanted: (comment: string) => boolean) {
  for (const [chain, rule] of commentedRules(table, wanted)) deleteRule(table, chain, rule)
}
