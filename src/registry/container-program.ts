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

type Token = { word: string } | { op: ';' | '&&' | '||' }

/** Shell tokens: words (quotes respected, no expansion) and the list operators ; && || and newline. */
function tokens(s: string): Token[] {
  const out: Token[] = []
  let cur = ''
  let quote: string | null = null
  let any = false
  const flush = () => {
    if (cur || any) out.push({ word: cur })
    cur = ''
    any = false
  }
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!
    if (quote) {
      if (ch === quote) quote = null
      else cur += ch
    } else if (ch === '"' || ch === "'") {
      quote = ch
      any = true
    } else if (ch === ';' || ch === '\n') {
      flush()
      out.push({ op: ';' })
    } else if ((ch === '&' || ch === '|') && s[i + 1] === ch) {
      flush()
      out.push({ op: ch === '&' ? '&&' : '||' })
      i++
    } else if (/\s/.test(ch)) flush()
    else cur += ch
  }
  flush()
  return out
}

/** Seconds in a sleep argument: N, N.M, or with an s/m/h/d suffix; null when it is not one. */
function sleepSeconds(arg: string | undefined): number | null {
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg ?? '')
  if (!m) return null
  return Number(m[1]) * ({ '': 1, s: 1, m: 60, h: 3600, d: 86400 } as Record<string, number>)[m[2]!]!
}

/** printf with %s, %d and %% conversions and backslash escapes; the format repeats while arguments remain. */
function printf(format: string, args: string[]): string {
  const unescapeText = (t: string) => t.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\')
  let out = ''
  let i = 0
  do {
    let used = 0
    out += unescapeText(format).replace(/%([sd%])/g, (_, c: string) => {
      if (c === '%') return '%'
      used++
      const v = args[i++] ?? ''
      return c === 'd' ? String(Number.parseInt(v, 10) || 0) : v
    })
    if (used === 0) break
  } while (i < args.length)
  return out
}

interface RunState {
  output: { at: number; line: string }[]
  seconds: number
  code: number
}

const write = (state: RunState, text: string) => {
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  for (const line of lines) state.output.push({ at: state.seconds, line })
}

function statement(argv: string[], state: RunState): 'continue' | 'exit' | null {
  const [cmd, ...rest] = argv
  if (!cmd) return 'continue'
  const name = cmd.slice(cmd.lastIndexOf('/') + 1)
  switch (name) {
    case 'echo': {
      const noNewline = rest[0] === '-n'
      state.output.push({ at: state.seconds, line: (noNewline ? rest.slice(1) : rest).join(' ') })
      state.code = 0
      return 'continue'
    }
    case 'printf':
      write(state, printf(rest[0] ?? '', rest.slice(1)))
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
      const n = sleepSeconds(rest[0])
      if (n === null) return null
      state.seconds += n
      state.code = 0
      return 'continue'
    }
    default:
      return null
  }
}

/** Runs a script of simple statements joined by ; && || (with sh's short-circuiting). False: not simulable. */
function runScript(script: string, state: RunState): boolean {
  const toks = tokens(script)
  let argv: string[] = []
  let skip = false
  const run = (): 'continue' | 'exit' | null => {
    const words = argv
    argv = []
    if (skip || words.length === 0) return 'continue'
    return statement(words, state)
  }
  for (const t of toks) {
    if ('word' in t) {
      argv.push(t.word)
      continue
    }
    const r = run()
    if (r === null) return false
    if (r === 'exit') return true
    // After `a && b` b runs only if a succeeded; after `a || b` only if a failed; after `;` always.
    if (t.op === '&&') skip = skip ? skip : state.code !== 0
    else if (t.op === '||') skip = skip ? false : state.code === 0
    else skip = false
  }
  const r = run()
  return r !== null
}

export function containerProgram(command: string[] | undefined, args: string[] | undefined): ContainerProgram {
  const argv = [...(command ?? []), ...(args ?? [])]
  if (argv.length === 0) return { output: [], exit: null }
  const state: RunState = { output: [], seconds: 0, code: 0 }
  const head = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1)
  let finite: boolean
  if (SHELLS.has(head) && argv[1] === '-c' && argv[2] !== undefined) finite = runScript(argv[2], state)
  else finite = statement(argv, state) !== null
  return finite
    ? { output: state.output, exit: { code: state.code, seconds: state.seconds } }
    : { output: [], exit: null }
}
