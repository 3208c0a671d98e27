// The part of client-go's JSONPath (k8s.io/client-go/util/jsonpath) printer columns and selectable fields use:
// `.a.b`, `['a.b']` / `["a"]`, `[2]` and `[*]` steps from the object's root. Missing keys find nothing, as kube's
// parsers are set to allow them.

type Step = { key: string } | { index: number } | { all: true }

/** The steps of a path, or null when it is not one this subset reads. */
export function parseJsonPath(path: string): Step[] | null {
  const steps: Step[] = []
  let i = 0
  const s = path.trim()
  while (i < s.length) {
    if (s[i] === '.') {
      let j = i + 1
      while (j < s.length && s[j] !== '.' && s[j] !== '[') j++
      const key = s.slice(i + 1, j)
      if (!key) return null
      steps.push({ key })
      i = j
    } else if (s[i] === '[') {
      const close = s.indexOf(']', i)
      if (close < 0) return null
      const inner = s.slice(i + 1, close).trim()
      if (inner === '*') steps.push({ all: true })
      else if (/^-?\d+$/.test(inner)) steps.push({ index: Number(inner) })
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ key: inner.slice(1, -1) })
      else return null
      i = close + 1
    } else return null
  }
  return steps
}

/** The values a path finds in `obj` (none when a key is missing). */
export function findJsonPath(obj: unknown, steps: Step[]): unknown[] {
  let current: unknown[] = [obj]
  for (const step of steps) {
    const next: unknown[] = []
    for (const v of current) {
      if ('key' in step) {
        if (v && typeof v === 'object' && !Array.isArray(v) && step.key in v)
          next.push((v as Record<string, unknown>)[step.key])
      } else if ('index' in step) {
        if (Array.isArray(v)) {
          const i = step.index < 0 ? v.length + step.index : step.index
          if (i >= 0 && i < v.length) next.push(v[i])
        }
      } else if (Array.isArray(v)) next.push(...v)
      else if (v && typeof v === 'object') next.push(...Object.values(v))
    }
    current = next
  }
  return current
}
