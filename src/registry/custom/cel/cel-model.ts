// How a structural schema looks to CEL (apiextensions pkg/apiserver/schema/cel/model): the declared type of each
// node (objects with their properties, maps, lists, scalars, int-or-string and preserve-unknown-fields as dyn),
// kube's escaping of property names that are not CEL identifiers (`__dash__`, `__dot__`, reserved words), and the
// CEL values a custom resource's JSON becomes (integers as int, numbers as double, objects as maps).
import type { Structural } from '../../crd/structural'

export type CelTypeInfo =
  | {
      kind: 'int' | 'double' | 'string' | 'bool' | 'bytes' | 'null' | 'dyn' | 'type' | 'timestamp' | 'duration' | 'uint'
    }
  | { kind: 'list'; elem: CelTypeInfo }
  | { kind: 'map'; value: CelTypeInfo }
  | { kind: 'object'; schema: Structural; fields: Map<string, Structural> }
  | { kind: 'optional'; value: CelTypeInfo }

const DYN: CelTypeInfo = { kind: 'dyn' }

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
])

/** A property name as CEL programs spell it (kube's Escape), or null when it cannot be accessed from CEL. */
function escapeName(name: string): string | null {
  if (RESERVED.has(name)) return `__${name}__`
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return null
  let out = ''
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!
    if (c === '_' && name[i + 1] === '_') {
      out += '__underscores__'
      i++
    } else if (c === '.') out += '__dot__'
    else if (c === '-') out += '__dash__'
    else if (c === '/') out += '__slash__'
    else out += c
  }
  return out
}

/** The properties of an object node by their CEL names (at a resource root: apiVersion, kind, metadata only). */
function celFields(s: Structural, root: boolean): Map<string, Structural> {
  const fields = new Map<string, Structural>()
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    const name = escapeName(k)
    if (name !== null) fields.set(name, v)
  }
  if (root || s.embeddedResource) {
    fields.set('apiVersion', { type: 'string' })
    fields.set('kind', { type: 'string' })
    // Only name and generateName of metadata are visible to rules (kube's WithTypeAndObjectMeta).
    fields.set('metadata', {
      type: 'object',
      properties: { name: { type: 'string' }, generateName: { type: 'string' } },
    })
  }
  return fields
}

/** The CEL type of a schema node (`root`: the resource itself). */
export function typeOf(s: Structural | undefined, root = false): CelTypeInfo {
  if (!s || s.intOrString) return DYN
  switch (s.type) {
    case 'integer':
      return { kind: 'int' }
    case 'number':
      return { kind: 'double' }
    case 'boolean':
      return { kind: 'bool' }
    case 'string':
      return { kind: 'string' }
    case 'array':
      return { kind: 'list', elem: typeOf(s.items) }
    case 'object':
      if (s.properties || root || s.embeddedResource) return { kind: 'object', schema: s, fields: celFields(s, root) }
      if (s.additionalProperties) return { kind: 'map', value: typeOf(s.additionalProperties.structural) }
      return { kind: 'map', value: DYN }
    default:
      return DYN
  }
}

/** A JSON value as CEL sees it under schema `s`: integers of integer fields are int (bigint), objects are maps. */
export function toCel(v: unknown, s: Structural | undefined, root = false): unknown {
  if (v === null || v === undefined) return null
  if (typeof v === 'number') {
    if (s?.type === 'integer' || (s?.intOrString && Number.isInteger(v)) || (!s?.type && Number.isInteger(v)))
      return BigInt(Math.trunc(v))
    return v
  }
  if (typeof v !== 'object') return v
  if (Array.isArray(v)) return v.map((x) => toCel(x, s?.items))
  const o = v as Record<string, unknown>
  const out = new Map<string, unknown>()
  if (s && (s.properties || root || s.embeddedResource)) {
    for (const [k, x] of Object.entries(o)) {
      if (root || s.embeddedResource) {
        if (k === 'apiVersion' || k === 'kind') {
          out.set(k, x)
          continue
        }
        if (k === 'metadata' && x && typeof x === 'object') {
          const m = x as Record<string, unknown>
          const meta = new Map<string, unknown>()
          if (typeof m.name === 'string') meta.set('name', m.name)
          if (typeof m.generateName === 'string') meta.set('generateName', m.generateName)
          out.set('metadata', meta)
          continue
        }
      }
      const name = escapeName(k)
      const prop = s.properties?.[k]
      if (name !== null && prop) out.set(name, toCel(x, prop))
      else if (name !== null && s.preserveUnknownFields) out.set(name, toCel(x, undefined))
    }
    return out
  }
  const value = s?.additionalProperties?.structural
  for (const [k, x] of Object.entries(o)) out.set(k, toCel(x, value))
  return out
}
