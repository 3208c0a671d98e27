// JSON numbers as Go's decoder reads them: the literal text kept beside the value (Go reads ints from the text, so
// 1.0, 1e3 and 20-digit numbers decode as Go decodes them), whether a number fits a Go int, and the unwrapping of
// those that land in opaque values.

/** A JSON number whose literal text matters (1.0, 1e3, 20 digits): Go reads ints from the text, not the value. */
export class RawNumber {
  constructor(
    readonly value: number,
    readonly source: string,
  ) {}
}

const INT_RANGE = { 32: [-(2n ** 31n), 2n ** 31n - 1n], 64: [-(2n ** 63n), 2n ** 63n - 1n] } as const

export const numberText = (v: number | RawNumber) => (v instanceof RawNumber ? v.source : String(v))

/** Whether a JSON number's text decodes into a Go int of `bits` (strconv.ParseInt, then the overflow check). */
export function fitsInt(v: number | RawNumber, bits: 32 | 64): boolean {
  if (v instanceof RawNumber) {
    if (!/^-?\d+$/.test(v.source)) return false
    const n = BigInt(v.source)
    return n >= INT_RANGE[bits][0] && n <= INT_RANGE[bits][1]
  }
  return Number.isInteger(v) && v >= Number(INT_RANGE[bits][0]) && v <= Number(INT_RANGE[bits][1])
}

/**
 * Replaces RawNumbers under a value by their numbers, in place (an opaque value: interface{}, raw JSON). Iterative:
 * such values may nest as deep as Go's decoder reads (10000 levels).
 */
export function unwrapRawNumbers(root: unknown): unknown {
  if (root instanceof RawNumber) return root.value
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const v = stack.pop()
    if (v === null || typeof v !== 'object') continue
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i]
        if (x instanceof RawNumber) v[i] = x.value
        else stack.push(x)
      }
      continue
    }
    const o = v as Record<string, unknown>
    // An own "__proto__" key is assigned as the own data property it is, never the prototype.
    for (const k of Object.keys(o)) {
      const x = o[k]
      if (x instanceof RawNumber) o[k] = x.value
      else stack.push(x)
    }
  }
  return root
}
