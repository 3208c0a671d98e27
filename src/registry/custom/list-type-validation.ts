// ValidateListSetsAndMaps (apiextensions pkg/apiserver/schema/listtype): items of an x-kubernetes-list-type=set
// list are unique, and so are the keys of a map list's items; a map list holds objects.
import { goSharpV } from '../decoding/go-format'
import { fieldError, type FieldError, FieldPath } from '../field-errors'
import type { Structural } from '../crd/structural'

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const UNSPECIFIED = Symbol('unspecified key')

const duplicate = (field: string, value: unknown): FieldError => ({
  type: 'FieldValueDuplicate',
  field,
  message: `Duplicate value: ${typeof value === 'symbol' ? 'map[string]interface {}{}' : goSharpV(value, 'preserveInts', false)}`,
})

export function validateListSetsAndMaps(s: Structural | undefined, obj: unknown, path = new FieldPath()): FieldError[] {
  if (!s || !isMap(obj)) return []
  const errs: FieldError[] = []
  for (const [k, v] of Object.entries(obj)) {
    const prop = s.properties?.[k]
    if (prop) errs.push(...visit(prop, v, path.child(k)))
    else if (s.additionalProperties?.structural) errs.push(...visit(s.additionalProperties.structural, v, path.key(k)))
  }
  return errs
}

function visit(s: Structural, v: unknown, path: FieldPath): FieldError[] {
  if (Array.isArray(v)) return array(s, v, path)
  if (isMap(v)) return validateListSetsAndMaps(s, v, path)
  return []
}

/** The indices of items equal to an earlier one (each reported once, at its second appearance). */
function nonUnique(items: unknown[]): number[] {
  const seen = new Map<unknown, number>()
  const out: number[] = []
  items.forEach((x, i) => {
    const k = typeof x === 'object' && x !== null ? JSON.stringify(x) : x
    const times = seen.get(k) ?? 0
    if (times === 1) out.push(i)
    seen.set(k, times + 1)
  })
  return out
}

function array(s: Structural, items: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (s.listType === 'set') {
    for (const i of nonUnique(items)) errs.push(duplicate(path.index(i).path, items[i]))
  } else if (s.listType === 'map') {
    const bad = items.findIndex((x) => x !== null && !isMap(x))
    if (bad >= 0)
      return [fieldError.invalid(path.index(bad).path, items[bad], 'must be an object for an array of list-type map')]
    const keys = s.listMapKeys ?? []
    if (keys.length === 1) {
      const field = keys[0]!
      const values = items.map((x) => (isMap(x) && field in x ? x[field] : UNSPECIFIED))
      for (const i of nonUnique(values)) {
        const value = values[i]
        errs.push(duplicate(path.index(i).path, value === UNSPECIFIED ? UNSPECIFIED : { [field]: value }))
      }
    } else {
      const values = items.map((x) => {
        const key: Record<string, unknown> = {}
        if (isMap(x)) for (const f of keys) if (f in x) key[f] = x[f]
        return key
      })
      for (const i of nonUnique(values.map((v) => JSON.stringify(v))))
        errs.push(duplicate(path.index(i).path, values[i]))
    }
  }
  if (s.items) items.forEach((x, i) => errs.push(...visit(s.items!, x, path.index(i))))
  return errs
}
