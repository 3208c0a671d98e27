// Semantic equality of pod specs (apiequality.Semantic.DeepEqual on decoded JSON) and the diff appendix kube adds to
// ValidatePodUpdate's Forbidden error.
import type { PodSpec } from './pod-types'

const isEmpty = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0)

/** apiequality.Semantic.DeepEqual on decoded JSON: an empty list equals an absent one. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((x, i) => semanticEqual(x, bb[i]))
  }
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) if (!semanticEqual(ao[k], bo[k])) return false
  return true
}

const render = (v: unknown) => (v === undefined ? '<nil>' : JSON.stringify(v))

function diffLines(a: unknown, b: unknown, path: string, out: string[]) {
  if (semanticEqual(a, b)) return
  const bothObjects = a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)
  if (bothObjects) {
    const ao = a as Record<string, unknown>
    const bo = b as Record<string, unknown>
    const keys = Array.isArray(a)
      ? Array.from({ length: Math.max((a as unknown[]).length, (b as unknown[]).length) }, (_, i) => String(i))
      : [...new Set([...Object.keys(ao), ...Object.keys(bo)])]
    for (const k of keys) diffLines(ao[k], bo[k], Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k, out)
    return
  }
  if (a !== undefined) out.push(`- \t${path}: ${render(a)}`)
  if (b !== undefined) out.push(`+ \t${path}: ${render(b)}`)
}

/**
 * The appendix kube adds with cmp.Diff(old, new): `-` lines hold the stored value, `+` lines the requested one.
 * cmp.Diff's own layout is deliberately unstable upstream, so this keeps its frame and markers but prints one line
 * per changed field, named by its JSON path within the spec.
 */
export function describeSpecDiff(old: PodSpec, now: PodSpec): string {
  const lines: string[] = []
  diffLines(old, now, '', lines)
  return ['  core.PodSpec{', ...lines, '  }'].join('\n')
}
