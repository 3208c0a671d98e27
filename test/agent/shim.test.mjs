// The container shim (agent/shim.py) on its own, at its edges: a client's input that outruns a terminal container not
// reading it, and input written just before stdin is closed (stdinOnce).
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { SHIM } from '../../agent/container-process.ts'
import { hostPython } from '../../agent/host-tools.ts'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const until = async (what, ok, ms = 10_000) => {
  for (let t = 0; t < ms; t += 50) {
    if (ok()) return
    await sleep(50)
  }
  assert.fail(`timed out waiting for ${what}`)
}
const kill = (pid, sig = 'SIGKILL') => {
  try {
    process.kill(pid, sig)
  } catch {
    // gone
  }
}

describe('shim.py', () => {
  it('runs a command as another user in its volumes when one hides the interpreter’s own library', {
    skip: process.getuid() !== 0 && 'needs root (a mount namespace and another user)',
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shim-'))
    const python = hostPython()
    // An emptyDir mounted where the shim's python keeps its library (an emptyDir at /root, with pyenv's python).
    const lib = spawnSync(python, ['-I', '-S', '-c', 'import os; print(os.path.dirname(os.__file__))'], {
      encoding: 'utf8',
    }).stdout.trim()
    const empty = mkdtempSync(join(tmpdir(), 'shim-volume-'))
    const spec = {
      command: ['/bin/sh', '-c', 'echo ran as $(/usr/bin/id -u)'],
      dir,
      attempt: 0,
      tty: false,
      stdin: false,
      mounts: [{ source: empty, target: lib, readOnly: true }],
      security: { uid: 65534, gid: 65534, groups: [], noNewPrivs: true },
    }
    const shim = spawn(python, ['-I', '-S', SHIM, JSON.stringify(spec)], { cwd: dir, detached: true, stdio: 'ignore' })
    try {
      await until('the exit record', () => existsSync(join(dir, '0.exit')))
      assert.deepEqual(
        {
          exit: JSON.parse(readFileSync(join(dir, '0.exit'), 'utf8')).exitCode,
          log: readFileSync(join(dir, '0.log'), 'utf8').replace(/^\S+ /gm, ''),
        },
        { exit: 0, log: 'stdout F ran as 65534\n' },
      )
    } finally {
      kill(shim.pid)
    }
  })

  it('records the exit of a tty container that never read the megabytes a client wrote to its stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shim-'))
    const spec = {
      command: ['sh', '-c', 'stty raw -echo; sleep 1; echo done'],
      dir,
      attempt: 0,
      tty: true,
      stdin: true,
    }
    const shim = spawn('python3', ['-I', '-S', SHIM, JSON.stringify(spec)], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      detached: true,
      stdio: 'ignore',
    })
    let writer
    try {
      await until('the run record', () => existsSync(join(dir, '0.run')))
      // More than a terminal's input queue holds: the writer blocks once the shim stops taking it.
      writer = spawn('sh', ['-c', `head -c 3000000 /dev/zero > ${join(dir, '0.stdin')}`], { stdio: 'ignore' })
      await until('the exit record', () => existsSync(join(dir, '0.exit')))
      assert.equal(JSON.parse(readFileSync(join(dir, '0.exit'), 'utf8')).exitCode, 0)
      assert.match(readFileSync(join(dir, '0.log'), 'utf8'), / stdout F done\r?$/m)
    } finally {
      kill(writer?.pid)
      kill(shim.pid)
      const run = existsSync(join(dir, '0.run')) ? JSON.parse(readFileSync(join(dir, '0.run'), 'utf8')) : null
      if (run) kill(-run.pid)
    }
  })

  it('hands a tty container what was written to its stdin before the close, then its EOF', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shim-'))
    const spec = { command: ['cat'], dir, attempt: 0, tty: true, stdin: true }
    const shim = spawn('python3', ['-I', '-S', SHIM, JSON.stringify(spec)], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      detached: true,
      stdio: 'ignore',
    })
    try {
      await until('the run record', () => existsSync(join(dir, '0.run')))
      const fd = openSync(join(dir, '0.stdin'), constants.O_WRONLY)
      // Both arrive while the shim is held, so it finds the input and the close at once.
      process.kill(shim.pid, 'SIGSTOP')
      const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join('')
      writeSync(fd, lines)
      // The agent closes stdin as soon as its writes are done (stdinOnce): the shim is told on its control fifo.
      const ctl = openSync(join(dir, '0.ctl'), constants.O_WRONLY)
      writeSync(ctl, 'close-stdin\n')
      closeSync(ctl)
      closeSync(fd)
      process.kill(shim.pid, 'SIGCONT')
      await until('the exit record', () => existsSync(join(dir, '0.exit')))
      assert.equal(JSON.parse(readFileSync(join(dir, '0.exit'), 'utf8')).exitCode, 0)
      assert.match(readFileSync(join(dir, '0.log'), 'utf8'), / stdout F line 999\r?$/m)
    } finally {
      kill(shim.pid)
      const run = existsSync(join(dir, '0.run')) ? JSON.parse(readFileSync(join(dir, '0.run'), 'utf8')) : null
      if (run) kill(-run.pid)
    }
  })
})
