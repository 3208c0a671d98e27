// Rendering container log records as the kubelet's CRI log reader does (kuberuntime/logs): tailLines counts file
// records from the end, sinceTime skips earlier records, timestamps prefix each new line with its time, a partial
// record continues its line, and the log server cuts the output at limitBytes (timestamps included).
import type { LogRecord } from './cri-log.ts'

export interface LogQuery {
  tailLines?: number
  /** Only records at or after this time (ms since epoch). */
  since?: number
  limitBytes?: number
  timestamps?: boolean
}

/** Renders records in order; `state` carries whether the next record starts a line, across calls (follow). */
export function renderRecords(records: LogRecord[], q: LogQuery, state = { lineStart: true }): string {
  let out = ''
  for (const r of records) {
    if (q.since !== undefined && Date.parse(r.time) < q.since) continue
    if (q.timestamps && state.lineStart) out += `${r.time} `
    out += r.full ? `${r.text}\n` : r.text
    state.lineStart = r.full
  }
  return out
}

/** The records kube's tail keeps: the last `tail` (all when undefined). */
export function tailRecords(records: LogRecord[], tail: number | undefined): LogRecord[] {
  if (tail === undefined) return records
  return tail === 0 ? [] : records.slice(-tail)
}
