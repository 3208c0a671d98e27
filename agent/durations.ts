// Durations as the agent's flags spell them (Go's time.ParseDuration subset: "300ms", "10s", "5m", "1h", "1m30s").
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** Milliseconds of a duration like "1m30s"; a bare number is seconds. Throws on anything else. */
export function parseDuration(text: string): number {
  const t = text.trim()
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t)
    throw new Error(`invalid duration ${JSON.stringify(text)}`)
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0)
}

/** Go's Duration.String() (as kube prints back-offs): "300ms", "1.2s", "10s", "5m0s", "1h0m0s". */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor((ms % 3_600_000) / 60_000)
  const s = `${Number(((ms % 60_000) / 1000).toFixed(3))}s`
  if (h) return `${h}h${m}m${s}`
  if (m) return `${m}m${s}`
  return s
}
