// runtime.DefaultUnstructuredConverter.FromUnstructured (k8s.io/apimachinery pkg/runtime/converter.go) over a decoded
// JSON map: how a strategic merge patch's result (and an applied configuration) becomes a Go object, with its
// errors (`cannot restore map from string`, `cannot restore struct from: string`, `cannot convert int64 to string`,
// `unrecognized type: string`) and its unknown fields (sorted, as the converter sorts them).
import { quantityError } from '../../schema/quantity'
import { base64Error } from '../go-base64'
import { goKindName, goNumberType, type NumberModel } from './go-format'
import { goTimeError } from './go-time'
import type { GoType } from './go-types'

interface Converted {
  error: string | null
  /** `unknown field "spec.foo"`, sorted. */
  strict: string[]
}

class Failure {
  constructor(readonly message: string) {}
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The JSON encoding.Marshal gives a decoded value, which a custom unmarshaler then reads. */
const marshal = (v: unknown) => JSON.stringify(v)

/** encoding/json's kind word for a JSON text's first byte, as Unmarshal into a Go scalar reports it. */
function jsonKindOf(text: string): string {
  const c = text[0]
  if (c === '"') return 'string'
  if (c === '{') return 'object'
  if (c === '[') return 'array'
  if (c === 't' || c === 'f') return 'bool'
  return 'number'
}

/**
 * Converts `doc` into the Go struct `type`, as the converter does: the first error (fields in Go's struct order)
 * stops it. `model` says whether integral numbers are int64 (JSON decoded with PreserveInts) or float64 (YAML).
 */
export function convertFromUnstructured(doc: Record<string, unknown>, type: GoType, model: NumberModel): Converted {
  const unknown: string[] = []
  const path: string[] = []

  function convert(v: unknown, t: GoType): void {
    if (v === null || v === undefined) return
    switch (t.kind) {
      case 'string':
      case 'bool':
      case 'int':
      case 'float':
        scalar(v, t)
        return
      case 'bytes':
        // sliceFromUnstructured: a string is marshalled back to JSON and unmarshalled into the []byte.
        if (typeof v === 'string') {
          const problem = base64Error(v)
          if (problem !== null) throw new Failure(`error decoding from json: ${problem}`)
          return
        }
        if (!Array.isArray(v)) throw new Failure(`cannot restore slice from ${goKindName(v, model)}`)
        return
      case 'map':
        if (!isMap(v)) throw new Failure(`cannot restore map from ${goKindName(v, model)}`)
        for (const k in v) convert(v[k], t.elem!)
        return
      case 'slice': {
        if (!Array.isArray(v)) throw new Failure(`cannot restore slice from ${goKindName(v, model)}`)
        const depth = path.length
        for (let i = 0; i < v.length; i++) {
          path.push(`[${i}]`)
          convert(v[i], t.elem!)
          path.length = depth
        }
        return
      }
      case 'struct': {
        if (!isMap(v)) throw new Failure(`cannot restore struct from: ${goKindName(v, model)}`)
        const depth = path.length
        for (const [name, field] of t.fields) {
          if (v[name] === null || v[name] === undefined) continue
          path.push(depth > 0 ? `.${name}` : name)
          convert(v[name], field.type)
          path.length = depth
        }
        for (const k in v) {
          if (!t.fields.has(k)) unknown.push(`unknown field "${path.join('')}${depth > 0 ? '.' : ''}${k}"`)
        }
        return
      }
      default:
        custom(v, t)
    }
  }

  /** Scalars: assignable, convertible (int to string is, float to string is not), or unrecognized. */
  function scalar(v: unknown, t: GoType) {
    const from = goKindName(v, model)
    const to = t.kind === 'int' ? `int${t.bits}` : t.kind === 'float' ? 'float64' : t.kind
    const convertible =
      (from === 'string' && t.kind === 'string') ||
      (from === 'bool' && t.kind === 'bool') ||
      (from === 'int64' && (t.kind === 'int' || t.kind === 'float' || t.kind === 'string')) ||
      (from === 'float64' && (t.kind === 'int' || t.kind === 'float'))
    if (!convertible) throw new Failure(`unrecognized type: ${to}`)
    const fine =
      from === t.kind ||
      (from === 'int64' && (t.kind === 'int' || t.kind === 'float')) ||
      (from === 'float64' && (t.kind === 'float' || Number.isInteger(v as number)))
    if (!fine) throw new Failure(`cannot convert ${from} to ${t.name}`)
  }

  /** Types with their own UnmarshalJSON get the value marshalled back to JSON. */
  function custom(v: unknown, t: GoType) {
    const text = marshal(v)
    switch (t.kind) {
      case 'intOrString':
        if (text[0] === '"') return
        if (typeof v === 'number' && goNumberType(v, 'preserveInts') === 'int64' && v >= -(2 ** 31) && v < 2 ** 31)
          return
        throw new Failure(
          `json: cannot unmarshal ${typeof v === 'number' ? `number ${text}` : jsonKindOf(text)} into Go value of type int32`,
        )
      case 'quantity': {
        const problem = quantityError(typeof v === 'string' ? v : text)
        if (problem !== null) throw new Failure(problem)
        return
      }
      case 'time':
      case 'microTime': {
        if (typeof v !== 'string')
          throw new Failure(`json: cannot unmarshal ${jsonKindOf(text)} into Go value of type string`)
        const problem = goTimeError(v, t.kind === 'time' ? 'RFC3339' : 'RFC3339Micro')
        if (problem !== null) throw new Failure(problem)
        return
      }
      default:
        return
    }
  }

  try {
    convert(doc, type)
  } catch (e) {
    if (e instanceof Failure) return { error: e.message, strict: [] }
    throw e
  }
  return { error: null, strict: unknown.sort() }
}
