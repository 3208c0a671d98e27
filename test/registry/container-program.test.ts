// The completion rule (src/registry/container-program.ts): what a simulated container does, read from its command
// and args. Short echo/printf/true/false/exit/sleep programs (directly or as `sh -c` scripts) exit, with their
// output lines timed by the sleeps before them; anything else runs until the pod is deleted. podCompletion
// (src/registry/pod-lifecycle.ts) combines the containers of a pod with its restartPolicy.
import { describe, expect, it } from 'vitest'
import { containerProgram, type ContainerProgram } from '../../src/registry/container-program'
import { podCompletion } from '../../src/registry/pod-lifecycle'

const FOREVER: ContainerProgram = { output: [], exit: null }
const exits = (code: number, seconds: number, ...output: [number, string][]): ContainerProgram => ({
  output: output.map(([at, line]) => ({ at, line })),
  exit: { code, seconds },
})
const sh = (script: string) => containerProgram(['sh', '-c', script], undefined)

describe('containerProgram: single commands (command + args)', () => {
  const cases: [string, string[] | undefined, string[] | undefined, ContainerProgram][] = [
    ['no command, no args: the image entrypoint runs forever', undefined, undefined, FOREVER],
    ['empty command and args', [], [], FOREVER],
    ['echo', ['echo', 'hello', 'world'], undefined, exits(0, 0, [0, 'hello world'])],
    ['echo with no words writes an empty line', ['echo'], undefined, exits(0, 0, [0, ''])],
    ['echo -n still writes its text', ['echo', '-n', 'hi'], undefined, exits(0, 0, [0, 'hi'])],
    ['an absolute path is the same program', ['/bin/echo', 'x'], undefined, exits(0, 0, [0, 'x'])],
    ['command and args are one argv', ['echo'], ['a', 'b'], exits(0, 0, [0, 'a b'])],
    ['args alone are the argv', undefined, ['echo', 'from-args'], exits(0, 0, [0, 'from-args'])],
    [
      'printf: \\n separates lines, the trailing one is dropped',
      ['printf', 'a\\nb\\n'],
      undefined,
      exits(0, 0, [0, 'a'], [0, 'b']),
    ],
    ['printf without a newline', ['printf', 'hello'], undefined, exits(0, 0, [0, 'hello'])],
    ['true', ['true'], undefined, exits(0, 0)],
    ['/bin/true', ['/bin/true'], undefined, exits(0, 0)],
    ['false', ['false'], undefined, exits(1, 0)],
    ['sleep N', ['sleep', '5'], undefined, exits(0, 5)],
    ['sleep with a fraction', ['sleep', '0.5'], undefined, exits(0, 0.5)],
    ['sleep 0', ['sleep', '0'], undefined, exits(0, 0)],
    ['sleep infinity runs forever', ['sleep', 'infinity'], undefined, FOREVER],
    ['sleep without a number runs forever', ['sleep', 'abc'], undefined, FOREVER],
    ['sleep with a negative number runs forever', ['sleep', '-1'], undefined, FOREVER],
    ['an unknown binary runs forever', ['nginx', '-g', 'daemon off;'], undefined, FOREVER],
    ['a server in args runs forever', ['python'], ['-m', 'http.server'], FOREVER],
    ['sh without -c runs forever', ['sh'], undefined, FOREVER],
  ]
  for (const [name, command, args, want] of cases) {
    it(name, () => {
      expect(containerProgram(command, args)).toEqual(want)
    })
  }
})

describe('containerProgram: sh -c scripts', () => {
  const cases: [string, string, ContainerProgram][] = [
    ['a single echo', 'echo hi', exits(0, 0, [0, 'hi'])],
    ['statements separated by ;', 'echo a; echo b; echo c', exits(0, 0, [0, 'a'], [0, 'b'], [0, 'c'])],
    ['newlines separate statements', 'echo a\nsleep 2\necho b', exits(0, 2, [0, 'a'], [2, 'b'])],
    ['&& separates statements', 'echo a && sleep 1 && echo b', exits(0, 1, [0, 'a'], [1, 'b'])],
    [
      'lines are written when the sleeps before them are over',
      'echo start; sleep 1; echo mid; sleep 2.5; echo end; sleep 3',
      exits(0, 6.5, [0, 'start'], [1, 'mid'], [3.5, 'end']),
    ],
    ["the exit code is the last statement's", 'echo x; false', exits(1, 0, [0, 'x'])],
    ['a later success resets it', 'false; true', exits(0, 0)],
    ['exit N stops the script', 'echo a; exit 3; echo b; sleep 100', exits(3, 0, [0, 'a'])],
    ['exit after a sleep', 'sleep 2; exit 7', exits(7, 2)],
    ['exit with no code keeps the last status', 'false; exit', exits(1, 0)],
    ['exit codes wrap at 256', 'exit 258', exits(2, 0)],
    ['exit 0', 'exit 0', exits(0, 0)],
    ['double quotes keep spaces', 'echo "hello   world"', exits(0, 0, [0, 'hello   world'])],
    ['single quotes keep spaces', "echo 'a  b' c", exits(0, 0, [0, 'a  b c'])],
    ['an empty quoted word is a word', 'echo "" x', exits(0, 0, [0, ' x'])],
    ['printf in a script', "printf 'one\\ntwo\\n'; sleep 1", exits(0, 1, [0, 'one'], [0, 'two'])],
    ['extra whitespace and empty statements', '  echo a ;; ; echo b ;  ', exits(0, 0, [0, 'a'], [0, 'b'])],
    [': is true', ':', exits(0, 0)],
    ['an unknown command anywhere makes it run forever', 'echo a; nginx; echo b', FOREVER],
    ['an unknown command at the end too', 'echo ready; sleep 1; exec /app/server', FOREVER],
    ['a long-running sleep loop never ends', 'while true; do sleep 1; done', FOREVER],
    ['a bad sleep runs forever', 'echo a; sleep forever', FOREVER],
  ]
  for (const [name, script, want] of cases) {
    it(name, () => {
      expect(sh(script)).toEqual(want)
    })
  }

  it('bash, ash, dash, zsh and absolute shell paths are shells too', () => {
    for (const shell of ['bash', 'ash', 'dash', 'zsh', '/bin/sh', '/usr/bin/bash']) {
      expect(containerProgram([shell, '-c', 'echo ok; exit 4'], undefined), shell).toEqual(exits(4, 0, [0, 'ok']))
    }
  })

  it('the script may come from args', () => {
    expect(containerProgram(['sh', '-c'], ['echo from-args; sleep 2'])).toEqual(exits(0, 2, [0, 'from-args']))
    expect(containerProgram(['/bin/sh'], ['-c', 'exit 5'])).toEqual(exits(5, 0))
  })

  it('sh -c with no script runs forever', () => {
    expect(containerProgram(['sh', '-c'], undefined)).toEqual(FOREVER)
  })

  it('a script that is not a shell (python -c) runs forever', () => {
    expect(containerProgram(['python', '-c', 'print(1)'], undefined)).toEqual(FOREVER)
  })

  // Real sh: `a && b` runs b only if a succeeded; `false && echo no` prints nothing and exits 1. container-program.ts
  // runScript splits on && as if it were ;, so it writes "no" and exits 0 (a pod that should fail succeeds).
  it('&& short-circuits: false && echo no prints nothing and exits 1', () => {
    expect(sh('false && echo no')).toEqual(exits(1, 0))
  })

  // Real sh: `false || echo yes` prints "yes" and exits 0. runScript does not know ||: the statement becomes
  // `false` with ignored arguments, so nothing is written and the code is 1.
  it('|| runs the right side when the left fails', () => {
    expect(sh('false || echo yes')).toEqual(exits(0, 0, [0, 'yes']))
  })

  // Real sh: separators inside quotes are text; `echo "a;b"` prints a;b. runScript splits on ; before it reads
  // quotes, so the second half (`b"`) is an unknown command and the program is taken to run forever.
  it('a ; inside quotes is text, not a separator', () => {
    expect(sh('echo "a;b"; echo \'c && d\'')).toEqual(exits(0, 0, [0, 'a;b'], [0, 'c && d']))
  })

  // coreutils and busybox sleep accept s/m/h/d suffixes (`sleep 1m` is 60 seconds); statement() uses Number(), so
  // `sleep 1m` / `sleep 30s` make the container run forever instead of exiting after the sleep.
  it('sleep accepts the s/m/h suffixes', () => {
    expect(sh('sleep 30s; echo done')).toEqual(exits(0, 30, [30, 'done']))
    expect(sh('sleep 1m')).toEqual(exits(0, 60))
  })

  // printf reuses its format for the remaining arguments: `printf '%s\n' a b` prints "a\nb\n". statement() writes
  // the format itself ("%s") and ignores the arguments.
  it("printf applies its format to its arguments: printf '%s\\n' a b", () => {
    expect(sh("printf '%s\\n' a b")).toEqual(exits(0, 0, [0, 'a'], [0, 'b']))
  })
})

describe('podCompletion: the pod completes when every container exits and the restartPolicy lets it', () => {
  const pod = (restartPolicy: string | undefined, ...commands: (string[] | undefined)[]) => ({
    spec: {
      ...(restartPolicy ? { restartPolicy } : {}),
      containers: commands.map((command, i) => ({ name: `c${i}`, image: 'busybox', ...(command ? { command } : {}) })),
    },
  })

  const cases: [string, object, ReturnType<typeof podCompletion>][] = [
    ['restartPolicy Always (the default) never completes', pod(undefined, ['true']), null],
    ['Always, explicitly', pod('Always', ['sh', '-c', 'exit 0']), null],
    ['Never: success', pod('Never', ['sh', '-c', 'echo hi; sleep 2']), { seconds: 2, failed: false }],
    ['Never: failure', pod('Never', ['sh', '-c', 'exit 3']), { seconds: 0, failed: true }],
    ['OnFailure: success completes', pod('OnFailure', ['sleep', '1']), { seconds: 1, failed: false }],
    ['OnFailure: a failing container restarts forever', pod('OnFailure', ['false']), null],
    [
      'Never: the slowest container decides when',
      pod('Never', ['sleep', '1'], ['sh', '-c', 'sleep 4; echo x'], ['true']),
      { seconds: 4, failed: false },
    ],
    [
      'Never: one failing container fails the pod',
      pod('Never', ['sleep', '3'], ['sh', '-c', 'sleep 1; exit 2']),
      { seconds: 3, failed: true },
    ],
    ['Never: one container that runs forever keeps the pod running', pod('Never', ['true'], ['nginx']), null],
    ['Never: a container without a command runs forever', pod('Never', undefined), null],
  ]
  for (const [name, p, want] of cases) {
    it(name, () => {
      expect(podCompletion(p)).toEqual(want)
    })
  }
})
