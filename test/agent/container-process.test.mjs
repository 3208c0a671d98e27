// Containers as host processes: exit codes and reasons, StartError, output into the log, the process group stopped
// with SIGTERM then SIGKILL after the grace period; without a PID namespace, what leaves the process group is still
// ended with the run (the shim is its subreaper).
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { ContainerProcess } from '../../agent/container-process.ts'
import { parseRecords } from '../../agent/cri-log.ts'

const dir = () => mkdtempSync(join(tmpdir(), 'container-'))
const run = (script, extra = {}) => {
  const cwd = dir()
  return ContainerProcess.start({
    command: ['sh', '-c', script],
    env: { PATH: process.env.PATH, ...extra.env },
    cwd,
    stdin: extra.stdin ?? false,
    logFile: join(cwd, '0.log'),
  })
}
const texts = (p) => parseRecords(readFileSync(p.log.path, 'utf8')).map((r) => `${r.stream}:${r.text}`)
/** The live host processes `sleep <arg>`. */
const sleeping = (arg) =>
  readdirSync('/proc').filter((pid) => {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${arg}\0`
    } catch {
      return false
    }
  })
const marks = (n) =>
  Array.from({ length: n }, (_, i) => `${5000 + Math.floor(Math.random() * 4000)}.${process.pid}${i}`)
/** Two sleeps out of the process group: setsid, and a daemon's double fork. */
const escaping = ([a, b]) => `setsid sleep ${a} & (setsid sh -c "sleep ${b} &" &)`
const until = async (what, ok) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25))
  assert.ok(ok(), `timed out waiting for ${what}`)
}

describe('ContainerProcess', () => {
  it('logs stdout and stderr and reports Completed for exit 0', async () => {
    const p = run('echo out; echo err >&2; echo "$GREETING from $(pwd)"', { env: { GREETING: 'hi' } })
    assert.equal(await p.spawned, true)
    const exit = await p.exited
    assert.equal(exit.exitCode, 0)
    assert.equal(exit.reason, 'Completed')
    const lines = texts(p)
    assert.ok(lines.includes('stdout:out') && lines.includes('stderr:err'), String(lines))
    assert.match(
      lines.find((l) => l.startsWith('stdout:hi')),
      /^stdout:hi from \/.*container-/,
    )
  })

  it('reports Error with the exit code', async () => {
    const exit = await run('exit 3').exited
    assert.equal(exit.exitCode, 3)
    assert.equal(exit.reason, 'Error')
  })

  it('reports a command that cannot run as StartError 128', async () => {
    const cwd = dir()
    const p = ContainerProcess.start({
      command: ['no-such-command-here'],
      env: { PATH: process.env.PATH },
      cwd,
      stdin: false,
      logFile: join(cwd, '0.log'),
    })
    assert.equal(await p.spawned, false)
    const exit = await p.exited
    assert.deepEqual(
      [exit.exitCode, exit.reason, exit.message],
      [128, 'StartError', 'exec: "no-such-command-here": executable file not found in $PATH'],
    )
  })

  it('stops with SIGTERM (exit 143) and the whole group goes', async () => {
    const p = run('sleep 300 & echo $! > child.pid; wait')
    await p.spawned
    await new Promise((r) => setTimeout(r, 200))
    const t0 = Date.now()
    const exit = await p.stop(5000)
    assert.ok(Date.now() - t0 < 3000)
    assert.equal(exit.exitCode, 143)
    assert.equal(exit.signal, 15)
  })

  it('kills a process that ignores SIGTERM after the grace period (exit 137)', async () => {
    const p = run("trap '' TERM; echo ready; while true; do sleep 0.1; done")
    await p.spawned
    await new Promise((r) => setTimeout(r, 300))
    const t0 = Date.now()
    const exit = await p.stop(700)
    const took = Date.now() - t0
    assert.ok(took >= 600 && took < 3000, `took ${took} ms`)
    assert.equal(exit.exitCode, 137)
  })

  it('without a PID namespace, ends what left the process group once the command has ended', async () => {
    const [a, b] = marks(2)
    const p = run(`${escaping([a, b])}; sleep 0.3; exit 2`)
    await until('the sleeps', () => sleeping(a).length && sleeping(b).length)
    assert.equal((await p.exited).exitCode, 2)
    assert.deepEqual([...sleeping(a), ...sleeping(b)], [])
  })

  it('without a PID namespace, a stop ends what left the process group too', async () => {
    const [a, b, c] = marks(3)
    const p = run(`${escaping([a, b])}; sleep ${c}`)
    await until('the sleeps', () => sleeping(a).length && sleeping(b).length && sleeping(c).length)
    assert.equal((await p.stop(5000)).exitCode, 143)
    assert.deepEqual([...sleeping(a), ...sleeping(b), ...sleeping(c)], [])
  })

  it('reads stdin when the container keeps it open', async () => {
    const p = run('read line; echo "got $line"', { stdin: true })
    await p.spawned
    p.stdin.write('hello\n')
    await p.exited
    assert.deepEqual(texts(p), ['stdout:got hello'])
  })

  it('the shim logs a long line as 16 KiB partial records, and an unfinished line once output pauses (attach shows prompts)', async () => {
    const p = run(`head -c 40000 /dev/zero | tr '\\0' x; echo; printf 'prompt> '; read l`, { stdin: true })
    await p.spawned
    const seen = []
    p.onOutput((stream, chunk) => seen.push(`${stream}:${chunk}`))
    for (let i = 0; i < 100 && !seen.includes('stdout:prompt> '); i++) await new Promise((r) => setTimeout(r, 20))
    assert.ok(seen.includes('stdout:prompt> '), JSON.stringify(seen.map((s) => s.slice(0, 20))))
    p.stdin.end()
    await p.exited
    const records = parseRecords(readFileSync(p.log.path, 'utf8'))
    assert.deepEqual(
      records.map((r) => [r.full, r.text.length]),
      [
        [false, 16384],
        [false, 16384],
        [true, 40000 - 2 * 16384],
        [false, 'prompt> '.length],
      ],
    )
  })
})
