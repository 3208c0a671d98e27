// The body of a chunked watch: the lines the relay hands it wait here until the response's reader asks, and each read
// takes every line waiting, as kube's watch server writes each event and flushes only when no more are queued
// (handlers/watch.go: `if len(ch) == 0 { flusher.Flush() }`). A line that finds the reader waiting goes at once.
//
// Why not a TransformStream: workerd's pump reads a JS stream one chunk per turn of the isolate, and under load every
// turn waits behind the requests queued on the same thread; at one event per turn a busy namespace's watch fell
// seconds behind its commits (p50 1.9-3.5 s in bench/pipeline.mjs) while the lines waited in the stream's queue.
// Taking all waiting lines per read keeps the body's bytes (one JSON event per line) and drains any backlog in a turn.

const enc = new TextEncoder()

interface WatchLines {
  /** The response body. */
  readonly readable: ReadableStream<Uint8Array>
  /** Queues one line (newline included); false once the stream is closed or cut. */
  write(line: string): boolean
  /** Bytes written and not yet read. */
  readonly pending: number
  /** Ends the body after what is waiting has been read. */
  close(): void
  /** Ends the body at once, dropping what is waiting (the client then sees the response fail). */
  cut(reason: string): void
}

/** `onCancel` runs when the reader goes away (the client disconnected). */
export function watchLines(onCancel: () => void): WatchLines {
  let queue: Uint8Array[] = []
  let pending = 0
  let waiting = false
  let closing = false
  let ended = false
  let ctrl!: ReadableStreamDefaultController<Uint8Array>

  const take = (): Uint8Array => {
    const out = queue.length === 1 ? queue[0]! : new Uint8Array(pending)
    if (queue.length > 1) {
      let at = 0
      for (const b of queue) {
        out.set(b, at)
        at += b.byteLength
      }
    }
    queue = []
    pending = 0
    return out
  }
  const finish = () => {
    if (ended) return
    ended = true
    ctrl.close()
  }

  const readable = new ReadableStream<Uint8Array>(
    {
      start(c) {
        ctrl = c
      },
      // Called when the reader asks and nothing is queued in the stream (highWaterMark 0): hand over all that waits,
      // or remember that the reader waits so the next line goes straight to it.
      pull() {
        if (ended) return
        if (pending > 0) ctrl.enqueue(take())
        else if (closing) finish()
        else waiting = true
      },
      cancel() {
        ended = true
        queue = []
        pending = 0
        onCancel()
      },
    },
    { highWaterMark: 0 },
  )

  return {
    readable,
    get pending() {
      return pending
    },
    write(line) {
      if (ended || closing) return false
      const bytes = enc.encode(line)
      if (waiting) {
        waiting = false
        ctrl.enqueue(bytes)
      } else {
        queue.push(bytes)
        pending += bytes.byteLength
      }
      return true
    },
    close() {
      if (ended || closing) return
      closing = true
      if (pending === 0) finish()
    },
    cut(reason) {
      if (ended) return
      ended = true
      queue = []
      pending = 0
      ctrl.error(new Error(reason))
    },
  }
}
