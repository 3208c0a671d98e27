// Decoding a parsed JSON document into a Go type as kube's decoder (sigs.k8s.io/json, a fork of encoding/json, case
// sensitive, strict) does, without building the Go value: which error it reports, which fields are unknown, and
// what the document becomes (nulls read as Go reads them, unknown fields dropped). The document is changed in place.
// JSON numbers as Go reads them: ./go-json-numbers.ts; Go's zero values: ./go-zero-values.ts.
import { quantityError } from '../../schema/quantity'
import { base64Error, decodeBase64, encodeBase64 } from '../go-base64'
import { goTimeCanonical, goTimeError } from './go-time'
import { fitsInt, numberText, RawNumber, unwrapRawNumbers } from './go-json-numbers'
import type { GoType } from './go-types'
import { filled, zeroOf } from './go-zero-values'
import { MAX_OBJECT_DEPTH, TOO_DEEP } from '../nesting'

interface Unmarshaled {
  /** The error Unmarshal returns: the first type mismatch, or a custom unmarshaler's error; null if none. */
  error: string | null
  /** Strict decoding errors: `unknown field "spec.foo"`, in document order. */
  strict: string[]
}

/** Go's UnmarshalStrict keeps at most this many strict errors. */
const MAX_STRICT = 100

/** Thrown by a custom unmarshaler's failure: unlike a type mismatch, it stops decoding and wins over saved errors. */
class Abort {
  constructor(readonly message: string) {}
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber)

/** The JSON kind encoding/json names in "cannot unmarshal <kind>". */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number' || v instanceof RawNumber) return 'number'
  if (typeof v === 'boolean') return 'bool'
  if (Array.isArray(v)) return 'array'
  return 'object'
}

/**
 * Decodes `doc` (a parsed JSON object, changed in place) into the Go struct `type`. `fill` writes the zero values Go
 * holds for absent value fields (those omitempty would not leave out); a partial document (an applied configuration)
 * must not get them. What storage keeps (omitempty's empty fields gone) is go-encoded.ts's, run by the store.
 */
export function goUnmarshal(doc: Record<string, unknown>, type: GoType, fill = true): Unmarshaled {
  let saved: string | null = null
  const strict: string[] = []
  const seenStrict = new Set<string>()
  // encoding/json's error context: the struct whose field is being decoded, and the JSON names down to it.
  let struct = ''
  const fields: string[] = []
  // The strict path (keys, map keys and indices), what unknown-field errors print.
  const path: (string | number)[] = []

  const where = () =>
    struct !== '' || fields.length > 0 ? `Go struct field ${struct}.${fields.join('.')}` : 'Go value'
  const typeError = (value: string, typeName: string) =>
    `json: cannot unmarshal ${value} into ${where()} of type ${typeName}`
  const mismatch = (v: unknown, t: GoType) => {
    const value =
      t.kind === 'int' && (typeof v === 'number' || v instanceof RawNumber) ? `number ${numberText(v)}` : jsonKind(v)
    saved ??= typeError(value, t.name)
  }
  const unknownField = (key: string) => {
    if (strict.length >= MAX_STRICT) return
    let p = ''
    for (const e of path) p += typeof e === 'number' ? `[${e}]` : p ? `.${e}` : e
    const message = `unknown field ${JSON.stringify(p ? `${p}.${key}` : key)}`
    if (seenStrict.has(message)) return
    seenStrict.add(message)
    strict.push(message)
  }

  // Only a recursive type (a CRD's JSONSchemaProps) nests with its document; past MAX_OBJECT_DEPTH it stops here.
  let depth = 0
  function walk(v: unknown, t: GoType): unknown {
    if (++depth > MAX_OBJECT_DEPTH) throw new Abort(TOO_DEEP)
    try {
      return walkType(v, t)
    } finally {
      depth--
    }
  }

  function walkType(v: unknown, t: GoType): unknown {
    switch (t.kind) {
      case 'struct': {
        if (!isObject(v)) {
          mismatch(v, t)
          return v
        }
        const outer = struct
        for (const key in v) {
          const f = t.fields.get(key)
          if (!f) {
            unknownField(key)
            delete v[key]
            continue
          }
          const x = v[key]
          // null leaves a Go field at its zero value, which is what absence means here.
          if (x === null) {
            delete v[key]
            continue
          }
          struct = t.struct
          fields.push(key)
          path.push(key)
          const y = walk(x, f.type)
          if (y !== x) v[key] = y
          fields.pop()
          path.pop()
          struct = outer
        }
        if (fill)
          for (const [k, ft] of t.required) {
            if (v[k] !== undefined) continue
            const z = filled(ft)
            if (z !== undefined) v[k] = z
          }
        return v
      }
      case 'slice': {
        if (!Array.isArray(v)) {
          mismatch(v, t)
          return v
        }
        const elem = t.elem!
        for (let i = 0; i < v.length; i++) {
          const x = v[i]
          if (x === null) {
            v[i] = zeroOf(elem)
            continue
          }
          path.push(i)
          const y = walk(x, elem)
          if (y !== x) v[i] = y
          path.pop()
        }
        return v
      }
      case 'map': {
        if (!isObject(v)) {
          mismatch(v, t)
          return v
        }
        const elem = t.elem!
        for (const key in v) {
          const x = v[key]
          if (x === null) {
            v[key] = zeroOf(elem)
            continue
          }
          path.push(key)
          const y = walk(x, elem)
          if (y !== x) v[key] = y
          path.pop()
        }
        return v
      }
      case 'string':
        if (typeof v !== 'string') mismatch(v, t)
        return v
      case 'bool':
        if (typeof v !== 'boolean') mismatch(v, t)
        return v
      case 'int':
        if (typeof v === 'number' || v instanceof RawNumber) {
          if (!fitsInt(v, t.bits as 32 | 64)) mismatch(v, t)
          return v instanceof RawNumber ? v.value : v
        }
        mismatch(v, t)
        return v
      case 'float':
        if (v instanceof RawNumber) {
          if (!Number.isFinite(v.value)) saved ??= typeError(`number ${v.source}`, t.name)
          return v.value
        }
        if (typeof v !== 'number') mismatch(v, t)
        return v
      case 'intOrString':
        // IntOrString.UnmarshalJSON: a string, else json.Unmarshal into its int32, whose error aborts the decode.
        if (typeof v === 'string') return v
        if (typeof v === 'number' || v instanceof RawNumber) {
          if (!fitsInt(v, 32)) throw new Abort(typeError(`number ${numberText(v)}`, 'int32'))
          return v instanceof RawNumber ? v.value : v
        }
        throw new Abort(typeError(jsonKind(v), 'int32'))
      case 'quantity': {
        // Quantity.UnmarshalJSON parses the literal text (a string without its quotes), whatever JSON it is.
        const source =
          typeof v === 'string'
            ? v
            : typeof v === 'number' || v instanceof RawNumber
              ? numberText(v)
              : JSON.stringify(unwrapRawNumbers(v))
        const problem = quantityError(source)
        if (problem !== null) throw new Abort(problem)
        return v instanceof RawNumber ? v.value : v
      }
      case 'bytes':
        return bytesOf(v, t)
      case 'time':
      case 'microTime': {
        // Time.UnmarshalJSON: json.Unmarshal into a string (its type error aborts), then time.Parse.
        if (typeof v !== 'string') throw new Abort(typeError(jsonKind(v), 'string'))
        const layout = t.kind === 'time' ? 'RFC3339' : 'RFC3339Micro'
        const problem = goTimeError(v, layout)
        if (problem !== null) throw new Abort(problem)
        return goTimeCanonical(v, layout)
      }
      default:
        return unwrapRawNumbers(v)
    }
  }

  /** A []byte: base64 text (a bad one is a saved error), or an array of bytes; canonical base64 either way. */
  function bytesOf(v: unknown, t: GoType): unknown {
    if (typeof v === 'string') {
      const problem = base64Error(v)
      if (problem !== null) {
        saved ??= problem
        return v
      }
      const canonical = encodeBase64(decodeBase64(v))
      return canonical === v ? v : canonical
    }
    if (!Array.isArray(v)) {
      mismatch(v, t)
      return v
    }
    const bytes: number[] = []
    for (const x of v) {
      if (
        (typeof x === 'number' || x instanceof RawNumber) &&
        fitsInt(x, 32) &&
        +numberText(x) >= 0 &&
        +numberText(x) <= 255
      )
        bytes.push(+numberText(x))
      else {
        saved ??= typeError(
          typeof x === 'number' || x instanceof RawNumber ? `number ${numberText(x)}` : jsonKind(x),
          'uint8',
        )
        return v
      }
    }
    return encodeBase64(Uint8Array.from(bytes))
  }

  try {
    walk(doc, type)
  } catch (e) {
    if (e instanceof Abort) return { error: e.message, strict: [] }
    throw e
  }
  return { error: saved, strict: saved === null ? strict : [] }
}
