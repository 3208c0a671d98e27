// A custom resource's columns as kube's table convertor prints them: Name, then the version's
// additionalPrinterColumns of priority 0 (Age when it has none), each cell the first value its JSONPath finds, typed
// as the column says (a date reads as an age).
import { age } from './format.js'

/** Steps of the simple JSONPaths printer columns use: .a, ['a'], [0], [*], [?(@.a.b=="v")] (or !=). */
function steps(path) {
  const out = []
  const re = /\.([A-Za-z0-9_$-]+)|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]|\[\s*(-?\d+)\s*\]|\[\s*\*\s*\]|\.\*|\[\?\(@((?:\.[A-Za-z0-9_$-]+)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|([^)\s]+))\s*\)\]/y
  const text = path.trim().replace(/^\{(.*)\}$/, '$1').replace(/^\$/, '')
  let at = 0
  while (at < text.length) {
    re.lastIndex = at
    const m = re.exec(text)
    if (!m) return null
    at = re.lastIndex
    if (m[1] !== undefined || m[2] !== undefined || m[3] !== undefined) out.push({ field: m[1] ?? m[2] ?? m[3] })
    else if (m[4] !== undefined) out.push({ index: Number(m[4]) })
    else if (m[5] !== undefined) out.push({ filter: m[5].slice(1).split('.'), op: m[6], value: m[7] ?? m[8] ?? m[9] })
    else out.push({ all: true })
  }
  return out
}

/** Every value the path finds in the object. */
export function find(obj, path) {
  const parsed = steps(path)
  if (!parsed) return []
  let values = [obj]
  for (const s of parsed) {
    const next = []
    for (const v of values) {
      if (v === null || typeof v !== 'object') continue
      if (s.field !== undefined) {
        if (Object.hasOwn(v, s.field)) next.push(v[s.field])
      } else if (s.index !== undefined) {
        if (Array.isArray(v)) {
          const i = s.index < 0 ? v.length + s.index : s.index
          if (i >= 0 && i < v.length) next.push(v[i])
        }
      } else if (s.filter) {
        for (const item of Array.isArray(v) ? v : Object.values(v)) {
          const got = s.filter.reduce((x, f) => (x && typeof x === 'object' ? x[f] : undefined), item)
          if (got !== undefined && (String(got) === s.value) === (s.op === '==')) next.push(item)
        }
      } else next.push(...(Array.isArray(v) ? v : Object.values(v)))
    }
    values = next
  }
  return values
}

/** A cell as kube types it: integer, number, boolean, date (an age), string; a value of another type prints nothing. */
function cell(type, v) {
  if (v === undefined || v === null) return ''
  switch (type) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) ? String(v) : ''
    case 'number':
      return typeof v === 'number' ? String(v) : ''
    case 'boolean':
      return typeof v === 'boolean' ? String(v) : ''
    case 'date':
      return typeof v === 'string' ? age(v) : ''
    default:
      return typeof v === 'object' ? JSON.stringify(v) : String(v)
  }
}

const AGE = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }

/** The table columns of a CRD version (priority 0 only, as kubectl shows without -o wide). */
export function printerColumns(version) {
  const declared = version?.additionalPrinterColumns
  const shown = (declared?.length ? declared : [AGE]).filter((c) => !c.priority)
  return shown.map((c) => ({ label: c.name, cell: (o) => cell(c.type, find(o, c.jsonPath)[0]) }))
}
