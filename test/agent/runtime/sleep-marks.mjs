// Marked sleeps for the process runtime's PID-namespace tests: `sleep <mark>`, with a mark no other process on the
// host has, is found again through the host's /proc by its argv wherever it was reparented, so a test can see what a
// container left behind, and kill it when the test failed.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

/** The host pids of the live processes whose argv is `sleep <mark>`. */
export function marked(mark) {
  const found = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0]
      if (argv[0] === 'sleep' && argv.includes(mark) && state !== 'Z') found.push(Number(name))
    } catch {
      // gone meanwhile
    }
  }
  return found
}

/** A test file's marks: `mark()` makes a fresh one, `killMarked()` kills every process still carrying one. */
export function sleepMarks() {
  const marks = []
  return {
    mark() {
      const m = `${4000 + Math.floor(Math.random() * 5000)}.${process.pid}${marks.length}`
      marks.push(m)
      return m
    },
    killMarked() {
      for (const m of marks) for (const pid of marked(m)) process.kill(pid, 'SIGKILL')
    },
  }
}

/** Polls `ok` every 50 ms until it holds, failing the test after `ms`. */
export async function until(what, ok, ms = 10_000) {
  for (let t = 0; t < ms; t += 50) {
    if (ok()) return
    await sleep(50)
  }
  assert.fail(`timed out waiting for ${what}`)
}
