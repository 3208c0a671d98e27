// Pure range logic of the service allocators and of the addresses the cluster bootstraps: the service CIDR and the
// node-port range as integer ranges, kube's static/dynamic split of each (dynamic allocation prefers the upper part,
// keeping the lower band for addresses and ports users pick themselves), and the choice of a free value given what is
// taken.

/** A contiguous integer range [first, last] with its lower `staticBand` values kept for explicit requests. */
export interface IntRange {
  first: number
  last: number
  staticBand: number
}

const rangeSize = (r: IntRange) => r.last - r.first + 1
export const inRange = (r: IntRange, v: number) => Number.isInteger(v) && v >= r.first && v <= r.last

// ---- service CIDR ------------------------------------------------------------------------------------------------

export interface ServiceCIDR extends IntRange {
  /** The normalized CIDR as kube prints it in errors: 10.96.0.0/12. */
  text: string
}

export function ipv4ToInt(ip: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip)
  if (!m) return null
  const parts = m.slice(1).map(Number)
  if (parts.some((p) => p > 255)) return null
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!
}

export const intToIPv4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')

/**
 * Parses an IPv4 service CIDR. Usable addresses exclude the network and broadcast addresses; the static band is
 * min(max(16, size/16), 256) addresses (kube's ServiceIPStaticSubrange), none for ranges of 16 or fewer.
 */
/** The range kube defaults to when SERVICE_CIDR is unset. */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12'

/** The first usable address of the service range: the `kubernetes` service's. Falls back to the default range. */
export function firstServiceIP(serviceCIDR: string | undefined): string {
  const cidr = parseServiceCIDR(serviceCIDR || DEFAULT_SERVICE_CIDR) ?? parseServiceCIDR(DEFAULT_SERVICE_CIDR)!
  return intToIPv4(cidr.first)
}

export function parseServiceCIDR(text: string): ServiceCIDR | null {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(text.trim())
  if (!m) return null
  const base = ipv4ToInt(m[1]!)
  const bits = Number(m[2])
  // At least four addresses: two usable besides network and broadcast.
  if (base === null || bits > 30 || bits < 8) return null
  const size = 2 ** (32 - bits)
  const network = base - (base % size)
  const staticBand = size <= 16 ? 0 : Math.min(Math.max(16, Math.floor(size / 16)), 256)
  return { first: network + 1, last: network + size - 2, staticBand, text: `${intToIPv4(network)}/${bits}` }
}

// ---- node ports --------------------------------------------------------------------------------------------------

export interface PortRange extends IntRange {
  /** As kube prints it in errors: 30000-32767. */
  text: string
}

/** Parses "30000-32767" (or "30000+2767", a base and an extra count, as net.PortRange accepts). */
export function parsePortRange(text: string): PortRange | null {
  const m = /^(\d{1,5})\s*([-+])\s*(\d{1,5})$/.exec(text.trim())
  if (!m) return null
  const first = Number(m[1])
  const last = m[2] === '+' ? first + Number(m[3]) : Number(m[3])
  if (first < 1 || last > 65535 || last < first) return null
  const size = last - first + 1
  // kube's ServiceNodePortStaticSubrange: min(max(16, size/32), 128).
  const staticBand = size <= 16 ? 0 : Math.min(Math.max(16, Math.floor(size / 32)), 128)
  return { first, last, staticBand, text: `${first}-${last}` }
}

// ---- picking a free value ----------------------------------------------------------------------------------------

/**
 * The next free value of [lo, hi] at or after `start`, wrapping around once. `takenFrom(a, b)` answers the taken
 * values of [a, b] in ascending order (the storage reads them with one ordered query).
 */
export function firstFree(
  lo: number,
  hi: number,
  start: number,
  takenFrom: (a: number, b: number) => number[],
): number | null {
  if (hi < lo) return null
  const scan = (a: number, b: number): number | null => {
    let expect = a
    for (const v of takenFrom(a, b)) {
      if (v > expect) return expect
      if (v === expect) expect++
    }
    return expect <= b ? expect : null
  }
  return scan(start, hi) ?? (start > lo ? scan(lo, start - 1) : null)
}

/**
 * AllocateNext with kube's random-scan-with-offset strategy: a random start in the dynamic (upper) band, then the
 * static band if the upper one is full. `random()` is in [0, 1).
 */
export function pickFree(
  r: IntRange,
  takenFrom: (a: number, b: number) => number[],
  random: () => number,
): number | null {
  const dynLo = r.first + r.staticBand
  if (dynLo <= r.last) {
    const start = dynLo + Math.floor(random() * (r.last - dynLo + 1))
    const found = firstFree(dynLo, r.last, start, takenFrom)
    if (found !== null) return found
  }
  if (r.staticBand === 0) return null
  const start = r.first + Math.floor(random() * r.staticBand)
  return firstFree(r.first, dynLo - 1, start, takenFrom)
}
