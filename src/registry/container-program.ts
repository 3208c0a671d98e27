// What a simulated container "does", read from its command and args: the rule by which pods on virtual nodes may
// complete. A container exits only when its whole program is a short script of echo/printf/true/false/exit/sleep
// statements (directly, or as `sh -c` / `bash -c` script); anything else (a server, an unknown binary, no command
// at all: the image's entrypoint) runs until the pod is deleted. Echoed text becomes the container's log.

export interface ContainerProgram {
  /** Lines the program writes to stdout, each with the seconds after start at which it is written. */
  output: { at: number; line: string }[]
  /** null: runs until stopped. Otherwise exits with this code after `seconds`. */
  exit: { code: number; seconds: number } | null
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh'])

/** Splits a shell word list (quotes respected, no expansion). */
function words(s: string): string[] {
  const out: string[] = []
  let cur = ''
  let quote: string | null = null
  let any = false
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null
      else cur += ch
    } else if (ch === '"' || ch === "'") {
      quote = ch
      any = true
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur)
      cur = ''
      any = false
    } else cur += ch
  }
  if (cur || any) out.push(cur)
  return out
}

/** Runs one simple statement; returns null if it is not one we can simulate. */
interface RunState {
  output: { at: number; line: string }[]
  seconds: number
  code: number
}

function statement(argv: string[], state: RunState): 'continue' | 'exit' | null {
  const [cmd, ...rest] = argv
  if (!cmd) return 'continue'
  const name = cmd.slice(cmd.lastIndexOf('/') + 1)
  switch (name) {
    case 'echo': {
      const noNewline = rest[0] === '-n'
      const text = (noNewline ? rest.slice(1) : rest).join(' ')
      state.output.push({ at: state.seconds, line: text })
      state.code = 0
      return 'continue'
    }
    case 'printf':
      for (const line of (rest[0] ?? '').replace(/\\n$/, '').split('\\n')) state.output.push({ at: state.seconds, line })
      state.code = 0
      return 'continue'
    case 'true':
    case ':':
      state.code = 0
      return 'continue'
    case 'false':
      state.code = 1
      return 'continue'
    case 'exit':
      state.code = rest[0] !== undefined && /^\d+$/.test(rest[0]) ? Number(rest[0]) % 256 : state.code
      return 'exit'
    case 'sleep': {
      const n = Number(rest[0])
      if (!Number.isFinite(n) || n < 0) return null
      state.seconds += n
      state.code = 0
      return 'continue'
    }
    default:
      return null
  }
}

function runScript(script: string, state: RunState): boolean {
  for (const part of script.split(/;|&&|\n/)) {
    const r = statement(words(part.trim()), state)
    if (r === null) return false
    if (r === 'exit') return true
  }
  return true
}

export function containerProgram(command: string[] | undefined, args: string[] | undefined): ContainerProgram {
  const argv = [...(command ?? []), ...(args ?? [])]
  if (argv.length === 0) return { output: [], exit: null }
  const state: RunState = { output: [], seconds: 0, code: 0 }
  const head = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1)
  let finite: boolean
  if (SHELLS.has(head) && argv[1] === '-c' && argv[2] !== undefined) finite = runScript(argv[2], state)
  else finite = statement(argv, state) !== null
  return finite ? { output: state.output, exit: { code: state.code, seconds: state.seconds } } : { output: [], exit: null }
}
