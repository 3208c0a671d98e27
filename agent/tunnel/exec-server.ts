// pods/exec on this node: the command runs as its runtime runs it (a process in the container's directory and
// environment, or the CLI's `exec`), in its own process group (a terminal from pty-helper.py when tty is asked for,
// resized from channel 4); stdin from channel 0
// (EOF ends it), stdout/stderr to channels 1/2, read only while the tunnel has credit; the exit as kube's Status on
// channel 3. A client that leaves takes the process group with it.
import { type ChildProcess, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import type { PodManager } from '../pod-manager.ts'
import { endWith, internal, nonZeroExit, runningContainer, success } from './stream-status.ts'
import type { Stream, StreamHandler } from './tunnel-client.ts'

const RESIZE_CHANNEL = 4
const ignore: StreamHandler = { data: () => undefined, eof: () => undefined, closed: () => undefined }

/** Relays a process output onto a channel, pausing it while the tunnel has no credit. */
export function relay(source: Readable | null, stream: Stream, channel: number) {
  source?.on('data', (chunk: Buffer) => {
    stream.send(channel, chunk)
    if (stream.blocked) {
      source.pause()
      stream.onDrain(() => source.resume())
    }
  })
}

export function killGroup(child: ChildProcess) {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL')
  } catch {
    // gone
  }
}

/** What the process's stdin and the terminal's size accept from the client. */
export function inputHandler(
  child: ChildProcess,
  stream: Stream,
  control: NodeJS.WritableStream | null,
): StreamHandler {
  return {
    data(channel, bytes) {
      if (channel === 0 && child.stdin && !child.stdin.destroyed)
        child.stdin.write(bytes, () => stream.grant(bytes.length))
      else {
        if (channel === RESIZE_CHANNEL && control) {
          try {
            const size = JSON.parse(Buffer.from(bytes).toString()) as { Width?: number; Height?: number }
            if (size.Width && size.Height) control.write(`${size.Width} ${size.Height}\n`)
          } catch {
            // not a size: ignored, as kube ignores it
          }
        }
        stream.grant(bytes.length)
      }
    },
    eof(channel) {
      if (channel === 0) child.stdin?.end()
    },
    closed: () => killGroup(child),
  }
}

export function serveExec(stream: Stream, pods: PodManager): StreamHandler {
  const command = stream.request.command ?? []
  const record = runningContainer(stream, pods, 'error executing command in container')
  if (!record) return ignore
  const tty = stream.request.tty === true
  let child: ChildProcess
  let argv: string[]
  try {
    // Refused for a container that has just ended (its status not updated yet).
    const run = record.execIn(command, { stdin: stream.request.stdin === true, tty })
    argv = run.argv
    child = spawn(argv[0]!, argv.slice(1), {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: [stream.request.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(tty ? (['pipe'] as const) : [])],
    })
  } catch (e) {
    endWith(stream, internal(`error executing command in container: ${(e as Error).message}`))
    return ignore
  }
  let failed = false
  child.on('error', (e) => {
    failed = true
    const code = (e as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? tty
          ? 'a terminal (tty) needs python3 on the node'
          : `exec: "${argv[0]}": executable file not found in $PATH`
        : e.message
    endWith(stream, internal(`error executing command in container: ${why}`))
  })
  child.stdin?.on('error', () => undefined)
  relay(child.stdout, stream, 1)
  relay(child.stderr, stream, tty ? 1 : 2)
  child.on('close', (code, signal) => {
    if (failed) return
    const exit = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)
    endWith(stream, exit === 0 ? success() : nonZeroExit(command, exit))
  })
  return inputHandler(child, stream, tty ? (child.stdio[3] as NodeJS.WritableStream) : null)
}
