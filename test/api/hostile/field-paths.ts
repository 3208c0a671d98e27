// Field paths of an example object and values of the wrong JSON type for them: what the field-type sweep sends in
// place of each field of a valid object.
type Obj = Record<string, any>
export type Path = (string | number)[]

/** Every field path under the object (containers and leaves), skipping apiVersion, kind and metadata.name. */
export function fieldPaths(obj: Obj): Path[] {
  const out: Path[] = []
  const walk = (v: unknown, path: Path) => {
    if (path.length > 0) out.push(path)
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]))
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k])
  }
  walk(obj, [])
  const skip = new Set(['apiVersion', 'kind', 'metadata.name', 'metadata', 'metadata.namespace'])
  return out.filter((p) => !skip.has(p.join('.')))
}

/** At most `n` of the paths, spread evenly (first and last kept), so each kind costs about the same. */
export function sample<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]!)
}

/** A value of another JSON type than `v`: numbers become strings, strings numbers, objects strings, arrays objects. */
export function wrongType(v: unknown): unknown {
  if (typeof v === 'string') return 12345
  if (typeof v === 'number') return 'not-a-number'
  if (typeof v === 'boolean') return 'yes'
  if (Array.isArray(v)) return { hostile: 1 }
  if (v && typeof v === 'object') return 'an-object-expected'
  return 7
}

export const read = (obj: Obj, path: Path): unknown => path.reduce<any>((o, k) => o?.[k], obj)

/** A deep copy of `obj` with `value` at `path`. */
export function withValue(obj: Obj, path: Path, value: unknown): Obj {
  const copy = structuredClone(obj)
  let o: any = copy
  for (const k of path.slice(0, -1)) o = o[k]
  o[path.at(-1)!] = value
  return copy
}

export const show = (path: Path) =>
  path
    .map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`))
    .join('')
    .slice(1)
