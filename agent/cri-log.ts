// Container log files in the CRI format kubelets read ("<RFC3339Nano> <stream> <F|P> <text>", one line each; lines
// longer than 16 KiB are split into partial "P" records as containerd does), and reading them back into lines.
import { appendFileSync, writeFileSync } from 'node:fs'
import { rfc3339Nano } from './time.ts'

export type Stream = 'stdout' | 'stderr'

/** One record of a log file. */
export interface LogRecord {
  /** The record's time as written (RFC 3339 with nanoseconds). */
  time: string
  stream: Stream
  /** Whether the record ends its line ("F"); a "P" record's line continues in the next record. */
  full: boolean
  text: string
}

const MAX_RECORD = 16 * 1024

/** Appends a process's output to its log file, line by line, and tells listeners about each record written. */
export class CriLogWriter {
  private readonly pending: Record<Stream, string> = { stdout: '', stderr: '' }
  private readonly listeners = new Set<(r: LogRecord) => void>()

  readonly path: string

  /** `written` says another process (a run's shim) writes the file, and this one only tells listeners about it. */
  constructor(path: string, written = false) {
    this.path = path
    if (!written) writeFileSync(path, '')
  }

  /** Whether anyone listens (a reader of a file the shim writes need not read it otherwise). */
  get listening(): boolean {
    return this.listeners.size > 0
  }

  /** Tells listeners about records another process appended to the file. */
  announce(records: LogRecord[]) {
    for (const r of records) for (const l of this.listeners) l(r)
  }

  onRecord(listener: (r: LogRecord) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  write(stream: Stream, chunk: Buffer | string) {
    let text = this.pending[stream] + chunk.toString()
    const records: LogRecord[] = []
    const time = rfc3339Nano()
    let nl = text.indexOf('\n')
    while (nl >= 0) {
      records.push(...split(time, stream, text.slice(0, nl), true))
      text = text.slice(nl + 1)
      nl = text.indexOf('\n')
    }
    // An unfinished line waits for its end unless it is already over the record size.
    while (text.length >= MAX_RECORD) {
      records.push({ time, stream, full: false, text: text.slice(0, MAX_RECORD) })
      text = text.slice(MAX_RECORD)
    }
    this.pending[stream] = text
    this.emit(records)
  }

  /** The process ended: unfinished lines are written as they are. */
  close() {
    const time = rfc3339Nano()
    const records: LogRecord[] = []
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.pending[stream]) records.push({ time, stream, full: true, text: this.pending[stream] })
      this.pending[stream] = ''
    }
    this.emit(records)
  }

  private emit(records: LogRecord[]) {
    if (records.length === 0) return
    appendFileSync(this.path, records.map(formatRecord).join(''))
    for (const r of records) for (const l of this.listeners) l(r)
  }
}

function split(time: string, stream: Stream, line: string, full: boolean): LogRecord[] {
  const out: LogRecord[] = []
  let rest = line
  while (rest.length > MAX_RECORD) {
    out.push({ time, stream, full: false, text: rest.slice(0, MAX_RECORD) })
    rest = rest.slice(MAX_RECORD)
  }
  out.push({ time, stream, full, text: rest })
  return out
}

export const formatRecord = (r: LogRecord) => `${r.time} ${r.stream} ${r.full ? 'F' : 'P'} ${r.text}\n`

/** The records of a log file's text; malformed lines are skipped, as the kubelet's reader skips them. */
export function parseRecords(text: string): LogRecord[] {
  const out: LogRecord[] = []
  for (const line of text.split('\n')) {
    const m = /^(\S+) (stdout|stderr) ([FP]) (.*)$/s.exec(line)
    if (m) out.push({ time: m[1]!, stream: m[2] as Stream, full: m[3] === 'F', text: m[4]! })
  }
  return out
}
