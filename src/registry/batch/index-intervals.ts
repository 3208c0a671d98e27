// Completion indexes of Indexed Jobs written as ordered intervals ("0,2-4,7"): kube's validation of the text
// (validateIndexesFormat, with its error texts), the controller's lenient reading of it (parseIndexesFromString:
// invalid or out-of-range parts are skipped) and its writing (orderedIntervals.String).

export interface Interval {
  first: number
  last: number
}

type IntervalResult = { ok: true; first: number; last: number } | { ok: false; message: string }

/** strconv.Atoi: an optional sign and decimal digits. */
const atoi = (s: string): number | null => (/^[+-]?[0-9]+$/.test(s) ? Number(s) : null)

/** parseIndexInterval: `x` or `x-y` with x < y, both below completions. */
function parseIndexInterval(text: string, completions: number): IntervalResult {
  const limits = text.split('-')
  if (limits.length > 2) {
    return {
      ok: false,
      message: `the fragment "${text}" violates the requirement that an index interval can have at most two parts separated by '-'`,
    }
  }
  const x = atoi(limits[0]!)
  if (x === null) return { ok: false, message: `cannot convert string to integer for index: "${limits[0]}"` }
  if (x >= completions) return { ok: false, message: `too large index: "${limits[0]}"` }
  if (limits.length > 1) {
    const y = atoi(limits[1]!)
    if (y === null) return { ok: false, message: `cannot convert string to integer for index: "${limits[1]}"` }
    if (y >= completions) return { ok: false, message: `too large index: "${limits[1]}"` }
    if (x >= y) return { ok: false, message: `non-increasing order, previous: ${x}, current: ${y}` }
    return { ok: true, first: x, last: y }
  }
  return { ok: true, first: x, last: x }
}

/** validateIndexesFormat: the number of indexes the text names, or kube's error. */
export function validateIndexesFormat(
  text: string,
  completions: number,
): { ok: true; total: number } | { ok: false; message: string } {
  if (text.length === 0) return { ok: true, total: 0 }
  let last: number | null = null
  let total = 0
  for (const part of text.split(',')) {
    const r = parseIndexInterval(part, completions)
    if (!r.ok) return r
    if (last !== null && last >= r.first)
      return { ok: false, message: `non-increasing order, previous: ${last}, current: ${r.first}` }
    total += r.last - r.first + 1
    last = r.last
  }
  return { ok: true, total }
}

/** parseIndexesFromString: the valid intervals below completions, merged in order (bad parts are skipped). */
export function parseIndexes(text: string | undefined, completions: number): Interval[] {
  const out: Interval[] = []
  if (!text) return out
  for (const part of text.split(',')) {
    const limits = part.split('-')
    const x = atoi(limits[0] ?? '')
    if (x === null || x < 0 || x >= completions || limits.length > 2) continue
    let y = x
    if (limits.length === 2) {
      const parsed = atoi(limits[1]!)
      if (parsed === null || parsed < x) continue
      y = Math.min(parsed, completions - 1)
    }
    const prev = out[out.length - 1]
    if (prev && prev.last >= x - 1) prev.last = Math.max(prev.last, y)
    else out.push({ first: x, last: y })
  }
  return out
}

/** The intervals with some indexes added (withOrderedIndexes), merged. */
export function withIndexes(intervals: readonly Interval[], indexes: readonly number[]): Interval[] {
  const all = new Set<number>()
  for (const i of intervals) for (let x = i.first; x <= i.last; x++) all.add(x)
  for (const x of indexes) all.add(x)
  return toIntervals([...all])
}

/** Ordered intervals of a set of indexes. */
function toIntervals(indexes: readonly number[]): Interval[] {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b)
  const out: Interval[] = []
  for (const x of sorted) {
    const prev = out[out.length - 1]
    if (prev && prev.last === x - 1) prev.last = x
    else out.push({ first: x, last: x })
  }
  return out
}

export const intervalsTotal = (intervals: readonly Interval[]) =>
  intervals.reduce((n, i) => n + i.last - i.first + 1, 0)

export const intervalsHas = (intervals: readonly Interval[], x: number) =>
  intervals.some((i) => i.first <= x && x <= i.last)

/** orderedIntervals.String: `x` for a single index, `x-y` for a run. */
export const formatIntervals = (intervals: readonly Interval[]) =>
  intervals.map((i) => (i.first === i.last ? String(i.first) : `${i.first}-${i.last}`)).join(',')
