// The Prometheus text exposition format 0.0.4 as Go's client writes it (expfmt): families sorted by name, each with
// its HELP and TYPE lines, series sorted by their label values, label pairs in name order (a histogram's `le` last),
// label values escaped (\\, \", \n), help text escaped (\\, \n), numbers as Go formats them. Families without a
// series are left out, as the Go client leaves them out.
import { FAMILIES, type MetricFamily } from './definitions'
import { goFloat } from './go-float'

/** The Content-Type of this format. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** A series' value as the metrics table sums it: series name, label values (JSON array) and value. */
export interface SeriesValue {
  name: string
  labels: string
  value: number
}

const byName = new Map(FAMILIES.map((f) => [f.name, f]))
const SUFFIXES = ['_bucket', '_sum', '_count'] as const

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

/** Go's writeUint for counts (a bucket's cumulative count, a histogram's _count): an integer, never %e. */
const uint = (n: number) => (Number.isSafeInteger(n) && n >= 0 ? String(n) : goFloat(n))

interface Series {
  values: string[]
  value?: number
  buckets?: Map<string, number>
  sum?: number
  count?: number
}

function familyOf(name: string): { family: MetricFamily; part: '' | (typeof SUFFIXES)[number] } | null {
  const direct = byName.get(name)
  if (direct && direct.type !== 'histogram') return { family: direct, part: '' }
  for (const suffix of SUFFIXES) {
    if (!name.endsWith(suffix)) continue
    const family = byName.get(name.slice(0, -suffix.length))
    if (family?.type === 'histogram') return { family, part: suffix }
  }
  return null
}

function parseLabels(text: string): string[] | null {
  try {
    const v = JSON.parse(text) as unknown
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null
  } catch {
    return null
  }
}

function compareValues(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1
  return a.length - b.length
}

/** `{a="1",b="2"}` with the label pairs in name order (then `le`), or '' when there are none. */
function labelText(family: MetricFamily, values: readonly string[], le?: string): string {
  const pairs = family.labels.map((n, i) => [n, values[i] ?? ''] as const).sort((x, y) => (x[0] < y[0] ? -1 : 1))
  if (le !== undefined) pairs.push(['le', le])
  if (pairs.length === 0) return ''
  return `{${pairs.map(([n, v]) => `${n}="${escapeLabel(v)}"`).join(',')}}`
}

/** Renders summed series values as the text exposition format. Rows of unknown families or shapes are skipped. */
export function renderExposition(rows: readonly SeriesValue[]): string {
  const families = new Map<MetricFamily, Map<string, Series>>()
  for (const row of rows) {
    const found = familyOf(row.name)
    const labels = found && parseLabels(row.labels)
    if (!found || !labels) continue
    const { family, part } = found
    const values = part === '_bucket' ? labels.slice(0, -1) : labels
    if (values.length !== family.labels.length) continue
    let series = families.get(family)
    if (!series) families.set(family, (series = new Map()))
    const k = JSON.stringify(values)
    let s = series.get(k)
    if (!s) series.set(k, (s = { values }))
    if (part === '') s.value = row.value
    else if (part === '_sum') s.sum = row.value
    else if (part === '_count') s.count = row.value
    else (s.buckets ??= new Map()).set(labels[labels.length - 1]!, row.value)
  }
  let out = ''
  for (const family of [...families.keys()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const series = [...families.get(family)!.values()].sort((a, b) =>
      compareValues(sortedValues(family, a), sortedValues(family, b)),
    )
    out += `# HELP ${family.name} ${escapeHelp(family.help)}\n# TYPE ${family.name} ${family.type}\n`
    for (const s of series) {
      if (family.type !== 'histogram') {
        out += `${family.name}${labelText(family, s.values)} ${goFloat(s.value ?? 0)}\n`
        continue
      }
      // Every bucket is written; one never flushed holds what the bucket below it holds (counts are cumulative).
      let below = 0
      for (const le of [...(family.buckets ?? []).map(goFloat), '+Inf']) {
        below = Math.max(below, s.buckets?.get(le) ?? below)
        out += `${family.name}_bucket${labelText(family, s.values, le)} ${uint(below)}\n`
      }
      out += `${family.name}_sum${labelText(family, s.values)} ${goFloat(s.sum ?? 0)}\n`
      out += `${family.name}_count${labelText(family, s.values)} ${uint(s.count ?? below)}\n`
    }
  }
  return out
}

/** A series' label values in label-name order: the Go client sorts series by them. */
function sortedValues(family: MetricFamily, s: Series): string[] {
  return family.labels
    .map((n, i) => [n, s.values[i] ?? ''] as const)
    .sort((x, y) => (x[0] < y[0] ? -1 : 1))
    .map(([, v]) => v)
}
