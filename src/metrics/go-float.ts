// Numbers as Prometheus's Go client writes them in the text format (expfmt's writeFloat): +Inf, -Inf, NaN, and
// otherwise strconv.FormatFloat(f, 'g', -1, 64).

/**
 * Go's `strconv.FormatFloat(f, 'g', -1, 64)`: the shortest digits that read back as the same number, in %e form
 * (`1e+06`, `1.234567e+06`, `5e-05`: at least two exponent digits) when the decimal exponent is below -4 or at least
 * 6 (Go's 'g' decides with precision 6 in shortest mode), positional otherwise (`0.005`, `123456`).
 */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN'
  if (f === Number.POSITIVE_INFINITY) return '+Inf'
  if (f === Number.NEGATIVE_INFINITY) return '-Inf'
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  // toExponential() without an argument gives the shortest round-tripping digits, as Go's shortest mode does.
  const [mantissa, expText] = f.toExponential().split('e') as [string, string]
  const exp = Number(expText)
  const sign = mantissa.startsWith('-') ? '-' : ''
  const digits = mantissa.replace('-', '').replace('.', '')
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : ''
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  if (digits.length <= exp + 1) return sign + digits + '0'.repeat(exp + 1 - digits.length)
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
}
