// The table-driven converter between v1beta1 shapes and the stored v1 objects: each kind is a list of rows pairing a
// v1beta1 field with a v1 field (and value conversions). One engine reads the tables both ways and maps v1 field
// paths in validation errors back to v1beta1 ones, so the tables are the only per-kind conversion code.

type Json = Record<string, unknown>

/** One field pairing. Paths are dotted; a numeric segment indexes an array (`spec.ports.0.port`); '' is the whole object. */
export interface Row {
  beta: string
  v1: string
  /** v1beta1 value -> v1 value; `base` is the stored v1 value at `v1` on updates. undefined unsets the field. */
  toV1?: (value: unknown, beta: Json, base: unknown) => unknown
  /** v1 value -> v1beta1 value; `obj` is the whole v1 object. undefined leaves the field out. */
  toBeta?: (value: unknown, obj: Json) => unknown
  /**
   * write (default): set from v1beta1; omitted on update = deleted, as the seed's PUT semantics ask.
   * keep: set from v1beta1 when given; omitted on update keeps the stored value (server-set or v1-only meaning).
   * read: only shown in v1beta1 (status, server-set fields); whatever a client sends is ignored.
   */
  mode?: 'write' | 'keep' | 'read'
  /** The v1beta1 zero value of a field that is serialized without omitempty (replicas: 0), used when it is absent. */
  omitted?: unknown
  /** Objects (or arrays of objects, matched by `key` against the stored items on update) converted by their own rows. */
  sub?: { rows: Row[]; key?: string }
}

const segments = (path: string) => (path === '' ? [] : path.split('.'))

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj
  for (const s of segments(path)) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Json)[s]
  }
  return cur
}

export function setPath(obj: Json, path: string, value: unknown) {
  const parts = segments(path)
  let cur: Json = obj
  parts.forEach((s, i) => {
    if (i === parts.length - 1) {
      cur[s] = value
      return
    }
    const nextIsIndex = /^\d+$/.test(parts[i + 1]!)
    if (cur[s] === null || typeof cur[s] !== 'object') cur[s] = nextIsIndex ? [] : {}
    cur = cur[s] as Json
  })
}

/** Deletes a field and then every object it leaves empty on the way up, stopping at arrays (they hold positions). */
export function unsetPath(obj: Json, path: string) {
  const parts = segments(path)
  const chain: Json[] = [obj]
  for (const s of parts.slice(0, -1)) {
    const next = chain[chain.length - 1]![s]
    if (next === null || typeof next !== 'object') return
    chain.push(next as Json)
  }
  delete chain[chain.length - 1]![parts[parts.length - 1]!]
  for (let i = chain.length - 1; i > 0; i--) {
    const o = chain[i]!
    if (Array.isArray(o) || Array.isArray(chain[i - 1]) || Object.keys(o).length > 0) break
    delete chain[i - 1]![parts[i - 1]!]
  }
}

/** Moves a table under a prefix on each side (a pod's desiredState rows become an RC template's). */
export const rebase = (rows: Row[], betaPrefix: string, v1Prefix: string): Row[] =>
  rows.map((r) => ({
    ...r,
    beta: [betaPrefix, r.beta].filter(Boolean).join('.'),
    v1: [v1Prefix, r.v1].filter(Boolean).join('.'),
  }))

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

/** v1 -> v1beta1. */
export function toBeta(rows: Row[], obj: Json): Json {
  const out: Json = {}
  for (const row of rows) {
    let v = getPath(obj, row.v1)
    if (row.sub && Array.isArray(v)) v = v.map((item) => (isObject(item) ? toBeta(row.sub!.rows, item) : item))
    else if (row.sub && isObject(v)) v = toBeta(row.sub.rows, v)
    if (row.toBeta) v = row.toBeta(v, obj)
    if (v === undefined && row.omitted !== undefined) v = row.omitted
    if (v !== undefined) setPath(out, row.beta, v)
  }
  return out
}

/** v1beta1 -> v1, over `base` (the stored object on update: what no row names is kept). */
export function toV1(rows: Row[], beta: Json, base?: Json): Json {
  const out: Json = base ? structuredClone(base) : {}
  for (const row of rows) {
    if (row.mode === 'read') continue
    let v = getPath(beta, row.beta)
    if (v === undefined) v = row.omitted
    const old = base ? getPath(base, row.v1) : undefined
    if (v === undefined) {
      if (row.mode !== 'keep') unsetPath(out, row.v1)
      continue
    }
    if (row.sub && Array.isArray(v)) {
      const key = row.sub.key
      const olds = Array.isArray(old) ? (old as Json[]) : []
      v = v.map((item, i) => {
        if (!isObject(item)) return item
        const match = key ? olds.find((o) => isObject(o) && o[key] !== undefined && o[key] === item[key]) : olds[i]
        return toV1(row.sub!.rows, item, isObject(match) ? match : undefined)
      })
    } else if (row.sub && isObject(v)) {
      v = toV1(row.sub.rows, v, isObject(old) ? old : undefined)
    }
    if (row.toV1) v = row.toV1(v, beta, old)
    if (v === undefined) unsetPath(out, row.v1)
    else setPath(out, row.v1, v)
  }
  return out
}

/** `spec.containers[0].image` -> ['spec', 'containers', '0', 'image']. */
const fieldSegments = (field: string) =>
  field
    .replace(/\[([^\]]*)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '')

/** Renders segments as kube prints field paths: numeric segments as [i]. */
const renderField = (parts: string[]) =>
  parts.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '')

/** Maps a v1 field path (from a validation error) to the v1beta1 path a client wrote, or null if no row names it. */
export function betaField(rows: Row[], field: string): string | null {
  const parts = fieldSegments(field)
  let best: { row: Row; len: number } | null = null
  for (const row of rows) {
    const v1 = segments(row.v1)
    if (row.mode === 'read' || v1.length === 0 || v1.length > parts.length) continue
    if (!v1.every((s, i) => s === parts[i])) continue
    if (!best || v1.length > best.len) best = { row, len: v1.length }
  }
  if (!best) return null
  const head = segments(best.row.beta)
  const rest = parts.slice(best.len)
  if (best.row.sub && rest.length > 0) {
    const index = /^\d+$/.test(rest[0]!) ? [rest[0]!] : []
    const inner = betaField(best.row.sub.rows, renderField(rest.slice(index.length)))
    if (inner !== null) return renderField([...head, ...index, ...fieldSegments(inner)])
  }
  return renderField([...head, ...rest])
}
