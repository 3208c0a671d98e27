// pods/attach on this node: the client sees the container's output from now on (stdout and stderr on channels 1 and
// 2, one stream for a tty container) and, when the container keeps stdin open, writes to it (stdinOnce: the first
// client to leave closes it); resize reaches a tty container's terminal; the container's end ends the attach.
import type { PodManager } from '../pod-manager.ts'
import { endWith, runningContainer, success } from './stream-status.ts'
import type { Stream, StreamHandler } from './tunnel-client.ts'

/** Output a client that does not read may leave waiting before it is cut off (the container does not wait). */
const MAX_BEHIND = 4 * 1024 * 1024
const ignore: StreamHandler = { data: () => undefined, eof: () => undefined, closed: () => undefined }

export function serveAttach(stream: Stream, pods: PodManager): StreamHandler {
  const record = runningContainer(stream, pods, 'error attaching to container')
  if (!record) return ignore
  const proc = record.proc!
  const tty = record.spec.tty === true
  let behind = 0
  let done = false
  const finish = (status?: object) => {
    if (done) return
    done = true
    stopOutput()
    if (status) endWith(stream, status)
    else stream.close()
  }
  const stopOutput = proc.onOutput((which, chunk) => {
    if (which === 'stdout' ? !stream.request.stdout : !stream.request.stderr && !tty) return
    stream.send(which === 'stderr' && !tty ? 2 : 1, chunk)
    if (stream.blocked) {
      behind += chunk.length
      if (behind > MAX_BEHIND) finish()
    } else behind = 0
  })
  void proc.exited.then(() => setTimeout(() => finish(success()), 0))
  const stdin = record.spec.stdin === true && stream.request.stdin ? proc.stdin : null
  return {
    data(channel, bytes) {
      if (channel === 0 && stdin && !stdin.destroyed) stdin.write(bytes, () => stream.grant(bytes.length))
      else {
        if (channel === 4 && tty) {
          try {
            const size = JSON.parse(Buffer.from(bytes).toString()) as { Width?: number; Height?: number }
            if (size.Width && size.Height) proc.resize(size.Width, size.Height)
          } catch {
            // not a size
          }
        }
        stream.grant(bytes.length)
      }
    },
    eof(channel) {
      if (channel === 0 && stdin && record.spec.stdinOnce === true) stdin.end()
    },
    closed() {
      if (stdin && record.spec.stdinOnce === true) stdin.end()
      done = true
      stopOutput()
    },
  }
}
