// Go's fmt verbs over decoded JSON (map[string]interface{}, []interface{}, string, bool, int64/float64, nil), for the
// messages that print a decoded patch: %v / %+v (`map[a:1 b:[x y]]`) and %#v (`map[string]interface {}{"a":1}`).
import { compareUtf8, goQuote } from '../go-strings'

/** Whether a decoded number is int64 (decoders that preserve ints) or float64 (the others). */
export type NumberModel = 'preserveInts' | 'floats'

const INT64_LIMIT = 2 ** 63

/** How a JSON number decodes: int64 when the decoder preserves integers and it is one, else float64. */
export function goNumberType(n: number, model: NumberModel): 'int64' | 'float64' {
  return model === 'preserveInts' && Number.isInteger(n) && n >= -INT64_LIMIT && n < INT64_LIMIT ? 'int64' : 'float64'
}

/** A float64 as %v prints it: the shortest digits, in %e form when the exponent is below -4 or at least 6. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf'
  if (n === 0) return Object.is(n, -0) ? '-0' : '0'
  const [mantissa, exp] = n.toExponential().split('e') as [string, string]
  const e = Number(exp)
  // strconv's 'g' with the shortest precision switches to %e at an exponent of 6 or more, or below -4.
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`
  const negative = n < 0
  const digits = mantissa.replace('-', '').replace('.', '')
  let out: string
  if (e >= digits.length - 1) out = digits + '0'.repeat(e - digits.length + 1)
  else if (e >= 0) out = `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`
  else out = `0.${'0'.repeat(-e - 1)}${digits}`
  return negative ? `-${out}` : out
}

function goNumber(n: number, model: NumberModel): string {
  if (goNumberType(n, model) === 'int64') return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString()
  return goFloat(n)
}

const sortedKeys = (o: Record<string, unknown>) => Object.keys(o).sort(compareUtf8)

/** %v (and %+v, the same for maps and slices) of a decoded JSON value. */
export function goV(v: unknown, model: NumberModel): string {
  if (v === null || v === undefined) return '<nil>'
  if (typeof v === 'string') return v
  if (typeof v === 'boolean') return String(v)
  if (typeof v === 'number') return goNumber(v, model)
  if (Array.isArray(v)) return `[${v.map((x) => goV(x, model)).join(' ')}]`
  const o = v as Record<string, unknown>
  return `map[${sortedKeys(o)
    .map((k) => `${k}:${goV(o[k], model)}`)
    .join(' ')}]`
}

/** %#v of a decoded JSON value held in an interface{}: Go syntax, with the dynamic types spelled out. */
export function goSharpV(v: unknown, model: NumberModel, inInterface = true): string {
  if (v === null || v === undefined) return inInterface ? 'interface {}(nil)' : 'nil'
  if (typeof v === 'string') return goQuote(v)
  if (typeof v === 'boolean') return String(v)
  if (typeof v === 'number') return goNumber(v, model)
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, model)).join(', ')}}`
  const o = v as Record<string, unknown>
  return `map[string]interface {}{${sortedKeys(o)
    .map((k) => `${goQuote(k)}:${goSharpV(o[k], model)}`)
    .join(', ')}}`
}

/** %T of a decoded JSON value. */
export function goTypeName(v: unknown, model: NumberModel): string {
  if (v === null || v === undefined) return '<nil>'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return goNumberType(v, model)
  if (Array.isArray(v)) return '[]interface {}'
  return 'map[string]interface {}'
}

/** reflect.Kind of a decoded JSON value, as `%v` prints it (the converter's "cannot restore map from string"). */
export function goKindName(v: unknown, model: NumberModel): string {
  if (v === null || v === undefined) return 'invalid'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return goNumberType(v, model)
  if (Array.isArray(v)) return 'slice'
  return 'map'
}
