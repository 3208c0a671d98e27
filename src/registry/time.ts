// Timestamps in the formats kube writes: RFC 3339 with second precision (metav1.Time) or microseconds (MicroTime),
// RFC 1123 with a numeric zone (event messages).

export const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')
const rfc3339Micro = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')

/** time.Time.UTC().Format(time.RFC1123Z): `Mon, 02 Jan 2006 15:04:05 +0000`. */
export function rfc1123z(instant: number): string {
  const d = new Date(instant)
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]
  const pad = (n: number) => String(n).padStart(2, '0')
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  return `${day}, ${pad(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${time} +0000`
}

const INT64_MAX = 2n ** 63n - 1n

/**
 * `t.Add(time.Second * time.Duration(seconds))` in ms, as Go computes it: the product of nanoseconds wraps around
 * int64 (a grace period of 2^63-1 s adds -1 s). `negate` computes `-time.Second * ...` (kube's grace shortening).
 * Seconds past int64 (an imprecise JS number near 2^63) count as the largest int64.
 */
export function addGoSeconds(ms: number, seconds: number, negate = false): number {
  const s = BigInt(Math.trunc(seconds))
  const clamped = s > INT64_MAX ? INT64_MAX : s < -INT64_MAX - 1n ? -INT64_MAX - 1n : s
  const ns = BigInt.asIntN(64, (negate ? -1_000_000_000n : 1_000_000_000n) * clamped)
  return ms + Number(ns / 1_000_000n)
}
