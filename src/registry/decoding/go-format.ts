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

/** How a container prints: its opening, the text before each key (maps), the separator and the closing. */
interface Brackets {
  open: string
  key: ((k: string) => string) | null
  sep: string
  close: string
}

/** Punctuation queued between the values `render` still has to print. */
class Text {
  constructor(readonly text: string) {}
}

/**
 * Prints a decoded JSON value, containers by `brackets` and map keys sorted as Go's fmt sorts them, scalars by
 * `scalar`; iterative, as a patch may nest as deep as Go's decoder reads.
 */
function render(
  root: unknown,
  scalar: (v: unknown, top: boolean) => string,
  brackets: (array: boolean) => Brackets,
): string {
  let out = ''
  const todo: unknown[] = [root]
  let top = true
  while (todo.length > 0) {
    const v = todo.pop()
    if (v instanceof Text) out += v.text
    else if (v !== null && typeof v === 'object') {
      const b = brackets(Array.isArray(v))
      out += b.open
      todo.push(new Text(b.close))
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) todo.push(v[i], ...(i > 0 ? [new Text(b.sep)] : []))
      } else {
        const o = v as Record<string, unknown>
        const keys = sortedKeys(o)
        for (let i = keys.length - 1; i >= 0; i--)
          todo.push(o[keys[i]!], new Text((i > 0 ? b.sep : '') + b.key!(keys[i]!)))
      }
    } else out += scalar(v, top)
    top = false
  }
  return out
}

/** %v (and %+v, the same for maps and slices) of a decoded JSON value. */
export function goV(v: unknown, model: NumberModel): string {
  return render(
    v,
    (x) => {
      if (x === null || x === undefined) return '<nil>'
      if (typeof x === 'string') return x
      if (typeof x === 'number') return goNumber(x, model)
      return String(x)
    },
    (array) =>
      array
        ? { open: '[', key: null, sep: ' ', close: ']' }
        : { open: 'map[', key: (k) => `${k}:`, sep: ' ', close: ']' },
  )
}

/** %#v of a decoded JSON value held in an interface{}: Go syntax, with the dynamic types spelled out. */
export function goSharpV(v: unknown, model: NumberModel, inInterface = true): string {
  return render(
    v,
    (x, top) => {
      if (x === null || x === undefined) return inInterface || !top ? 'interface {}(nil)' : 'nil'
      if (typeof x === 'string') return goQuote(x)
      if (typeof x === 'number') return goNumber(x, model)
      return String(x)
    },
    (array) =>
      array
        ? { open: '[]interface {}{', key: null, sep: ', ', close: '}' }
        : { open: 'map[string]interface {}{', key: (k) => `${goQuote(k)}:`, sep: ', ', close: '}' },
  )
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
