// pods/{name}/log for a pod on this node, from its container's log file: the run kube would pick (or the previous
// one), tailLines/sinceTime/timestamps/limitBytes as the kubelet applies them, and with follow the new lines until
// the run ends. The file is read from an offset only while the tunnel has credit, so a slow reader costs no memory.
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { type LogRecord, parseRecords } from '../cri-log.ts'
import { type LogQuery, renderRecords, tailRecords } from '../log-query.ts'
import type { PodManager } from '../pod-manager.ts'
import type { Stream, StreamHandler } from './tunnel-client.ts'

export interface LogOptions {
  container: string
  previous?: boolean
  follow?: boolean
  query: LogQuery
}

const CHUNK = 32 * 1024

/** The records appended to a file since the last read (whole lines only). */
class FileTail {
  private offset = 0
  private readonly path: string

  constructor(path: string) {
    this.path = path
  }

  read(): LogRecord[] {
    let size = 0
    try {
      size = statSync(this.path).size
    } catch {
      return []
    }
    if (size <= this.offset) return []
    const fd = openSync(this.path, 'r')
    try {
      const buf = Buffer.alloc(size - this.offset)
      readSync(fd, buf, 0, buf.length, this.offset)
      const end = buf.lastIndexOf(0x0a)
      if (end < 0) return []
      this.offset += end + 1
      return parseRecords(buf.subarray(0, end + 1).toString('utf8'))
    } finally {
      closeSync(fd)
    }
  }
}

const status = (code: number, reason: string, message: string, details?: object) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason,
  ...(details ? { details } : {}),
  code,
})

function refuse(stream: Stream, body: object & { code: number }) {
  stream.headers(body.code, [['content-type', 'application/json']])
  stream.send(1, Buffer.from(`${JSON.stringify(body)}\n`))
  stream.close()
}

export function serveLog(stream: Stream, pods: PodManager): StreamHandler {
  const { namespace, pod, uid } = stream.request
  const opts = stream.request.log as unknown as LogOptions
  const ignore: StreamHandler = { data: () => undefined, eof: () => undefined, closed: () => undefined }
  const worker = pods.byName(namespace, pod)
  const record = worker?.uid === uid ? worker.record(opts.container) : undefined
  if (!record) {
    refuse(stream, status(404, 'NotFound', `pods "${pod}" not found`, { name: pod, kind: 'pods' }))
    return ignore
  }
  const run = record.logRun(pod, opts.previous === true)
  if ('error' in run) {
    refuse(stream, status(400, 'BadRequest', run.error))
    return ignore
  }
  stream.headers(200, [['content-type', 'text/plain']])
  const tail = new FileTail(record.logFile(run.attempt))
  const line = { lineStart: true }
  let budget = opts.query.limitBytes ?? Number.POSITIVE_INFINITY
  let closed = false
  let reading = false
  let first = true
  const finish = () => {
    if (closed) return
    closed = true
    unsubscribe()
    stream.eof(1)
    stream.close()
  }
  /** Sends what the file gained, while there is credit; answers false once the byte limit is reached. */
  const pump = () => {
    if (closed || reading) return
    reading = true
    try {
      while (!stream.blocked) {
        let records = tail.read()
        if (first) {
          records = tailRecords(records, opts.query.tailLines)
          first = false
        }
        if (records.length === 0) break
        let bytes = Buffer.from(renderRecords(records, opts.query, line))
        if (bytes.length > budget) bytes = bytes.subarray(0, budget)
        budget -= bytes.length
        for (let i = 0; i < bytes.length; i += CHUNK) stream.send(1, bytes.subarray(i, i + CHUNK))
        if (budget <= 0) return finish()
      }
    } finally {
      reading = false
    }
    if (stream.blocked) stream.onDrain(pump)
    else if (!(opts.follow && run.proc?.running)) finish()
  }
  const unsubscribe = opts.follow && run.proc ? run.proc.log.onRecord(() => pump()) : () => true
  if (opts.follow && run.proc) void run.proc.exited.then(() => setTimeout(pump, 0))
  pump()
  return {
    data: () => undefined,
    eof: () => undefined,
    closed: () => {
      closed = true
      unsubscribe()
    },
  }
}
