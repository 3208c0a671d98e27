// metav1.Time in ObjectMeta's update validation: equality as kube compares it (the instant, at nanosecond precision)
// and the text a field error prints (time.Time.String()), for creationTimestamp and deletionTimestamp.
import { formatValue } from '../field-errors'

/** Go's zero metav1.Time, which an absent creationTimestamp is. */
export const ZERO_TIME = '0001-01-01T00:00:00Z'
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

/**
 * A timestamp as kube compares and prints it: metav1.Time equality is the instant at nanosecond precision, and a
 * field error prints it with time.Time.String() (`2024-05-01 10:00:00 +0000 UTC`, the apiserver running in UTC).
 * Strings that are not RFC 3339 (kube would have refused to decode them) compare and print as themselves.
 */
export function goTime(value: string): { key: string; text: string } {
  const m = RFC3339.exec(value)
  if (!m) return { key: value, text: formatValue(value) }
  const [, y, mo, d, h, mi, s, fraction = '', sign, offH, offM] = m
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d))
  date.setUTCHours(Number(h), Number(mi), Number(s), 0)
  if (sign) date.setTime(date.getTime() - (sign === '-' ? -1 : 1) * (Number(offH) * 60 + Number(offM)) * 60_000)
  const iso = date.toISOString()
  const nanos = fraction.slice(0, 9).replace(/0+$/, '')
  return {
    key: `${iso.slice(0, 19)}.${nanos}`,
    text: `${iso.slice(0, 10)} ${iso.slice(11, 19)}${nanos ? `.${nanos}` : ''} +0000 UTC`,
  }
}
