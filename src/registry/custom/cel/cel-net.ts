// kube's CEL network libraries (k8s.io/apiserver pkg/cel/library ip.go and cidr.go, in the environment since 1.30):
// ip(), isIP(), ip.isCanonical(), family(), the address class tests, cidr(), isCIDR(), containsIP(), containsCIDR(),
// ip() of a CIDR, masked(), prefixLength() and string() of both, parsed as Go's net/netip parses (no leading zeros in
// IPv4 fields, no zones, no IPv4-mapped IPv6 addresses) with its errors. An address is a map holding its canonical
// text under '@ip', a prefix one holding `<address>/<bits>` under '@cidr': equal values compare equal, as in kube.
import { CelScalar, celError, celFunc, type CelFunc, celMap, celMethod, mapType } from '@bufbuild/cel'
import { goQuote } from '../../go-strings'

const { BOOL, DYN, INT, STRING } = CelScalar
const MAP = mapType(STRING, DYN)
const IP_KEY = '@ip'
const CIDR_KEY = '@cidr'

/** An address: 4 or 16 bytes (an IPv4-mapped IPv6 address keeps its 16), and its IPv6 zone. */
interface Addr {
  bytes: number[]
  zone: string
}

const parseError = (input: string, msg: string, at = '') =>
  `ParseAddr(${goQuote(input)}): ${msg}${at ? ` (at ${goQuote(at)})` : ''}`

/** parseIPv4Fields: dotted decimal, no leading zeros; an error text or the 4 bytes. */
function ipv4Fields(input: string, s: string): number[] | string {
  const fields: number[] = []
  let val = 0
  let digits = 0
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) return parseError(input, 'IPv4 field has octet with leading zero')
      val = val * 10 + Number(c)
      digits++
      if (val > 255) return parseError(input, 'IPv4 field has value >255')
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.')
        return parseError(input, 'IPv4 field must have at least one digit', s.slice(i))
      if (fields.length === 3) return parseError(input, 'IPv4 address too long')
      fields.push(val)
      val = 0
      digits = 0
    } else return parseError(input, 'unexpected character', s.slice(i))
  }
  if (fields.length < 3) return parseError(input, 'IPv4 address too short')
  fields.push(val)
  return fields
}

/** parseIPv6: hex groups, one `::`, a trailing dotted quad, a zone after `%`. */
function ipv6(input: string): Addr | string {
  let s = input
  let zone = ''
  const pct = s.indexOf('%')
  if (pct !== -1) {
    zone = s.slice(pct + 1)
    s = s.slice(0, pct)
    if (zone === '') return parseError(input, 'zone must be a non-empty string')
  }
  const ip = new Array<number>(16).fill(0)
  let ellipsis = -1
  if (s.startsWith('::')) {
    ellipsis = 0
    s = s.slice(2)
    if (s === '') return { bytes: ip, zone }
  }
  let i = 0
  while (i < 16) {
    let off = 0
    let acc = 0
    for (; off < s.length; off++) {
      const d = parseInt(s[off]!, 16)
      if (Number.isNaN(d)) break
      if (off > 3) return parseError(input, 'each group must have 4 or less digits', s)
      acc = acc * 16 + d
    }
    if (off === 0) return parseError(input, 'each colon-separated field must have at least one digit', s)
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12)
        return parseError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s)
      if (i + 4 > 16)
        return parseError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s)
      const quad = ipv4Fields(input, s)
      if (typeof quad === 'string') return quad
      ip.splice(i, 4, ...quad)
      s = ''
      i += 4
      break
    }
    ip[i] = acc >> 8
    ip[i + 1] = acc & 0xff
    i += 2
    s = s.slice(off)
    if (s === '') break
    if (s[0] !== ':') return parseError(input, 'unexpected character, want colon', s)
    if (s.length === 1) return parseError(input, 'colon must be followed by more characters', s)
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) return parseError(input, 'multiple :: in address', s)
      ellipsis = i
      s = s.slice(1)
      if (s === '') break
    }
  }
  if (s !== '') return parseError(input, 'trailing garbage after address', s)
  if (i < 16) {
    if (ellipsis < 0) return parseError(input, 'address string too short')
    const n = 16 - i
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!
    ip.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0) return parseError(input, 'the :: must expand to at least one field of zeros')
  return { bytes: ip, zone }
}

/** netip.ParseAddr: an address or Go's error text. */
function parseAddr(s: string): Addr | string {
  for (const c of s) {
    if (c === '.') {
      const f = ipv4Fields(s, s)
      return typeof f === 'string' ? f : { bytes: f, zone: '' }
    }
    if (c === ':') return ipv6(s)
    if (c === '%') return parseError(s, 'missing IPv6 address')
  }
  return parseError(s, 'unable to parse IP')
}

const is4in6 = (a: Addr) =>
  a.bytes.length === 16 && a.bytes.slice(0, 10).every((b) => b === 0) && a.bytes[10] === 0xff && a.bytes[11] === 0xff

/** Addr.String(): dotted decimal, or RFC 5952 (lower-case hex, the longest run of two or more zero groups as ::). */
function addrString(a: Addr): string {
  if (a.bytes.length === 4) return a.bytes.join('.')
  const words = Array.from({ length: 8 }, (_, i) => (a.bytes[2 * i]! << 8) | a.bytes[2 * i + 1]!)
  if (is4in6(a)) return `::ffff:${a.bytes.slice(12).join('.')}`
  let zeroStart = -1
  let zeroLen = 1
  for (let i = 0; i < 8; i++) {
    let j = i
    while (j < 8 && words[j] === 0) j++
    if (j - i >= 2 && j - i > zeroLen) {
      zeroStart = i
      zeroLen = j - i
    }
  }
  let out = ''
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::'
      i += zeroLen - 1
      continue
    }
    if (i > 0 && !out.endsWith(':')) out += ':'
    out += words[i]!.toString(16)
  }
  return out + (a.zone ? `%${a.zone}` : '')
}

/** kube's parseIPAddr: netip's parse, then no zone and no IPv4-mapped IPv6 address. */
function parseIP(raw: string): Addr {
  const a = parseAddr(raw)
  if (typeof a === 'string')
    throw celError(`IP Address ${goQuote(raw)} parse error during conversion from string: ${a}`)
  if (a.zone !== '') throw celError(`IP address ${goQuote(raw)} with zone value is not allowed`)
  if (is4in6(a)) throw celError(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`)
  return a
}

interface Prefix {
  addr: Addr
  bits: number
}

/** netip.ParsePrefix: an address, '/', a decimal prefix length its family allows (no sign, no leading zero). */
function parsePrefix(s: string): Prefix | string {
  const fail = (msg: string) => `netip.ParsePrefix(${goQuote(s)}): ${msg}`
  const slash = s.lastIndexOf('/')
  if (slash < 0) return fail("no '/'")
  const addr = parseAddr(s.slice(0, slash))
  if (typeof addr === 'string') return fail(addr)
  if (addr.zone !== '') return fail('IPv6 zones cannot be present in a prefix')
  const bitsText = s.slice(slash + 1)
  if ((bitsText.length > 1 && (bitsText[0]! < '1' || bitsText[0]! > '9')) || !/^[+-]?\d+$/.test(bitsText))
    return fail(`bad bits after slash: ${goQuote(bitsText)}`)
  const bits = Number(bitsText)
  if (bits < 0 || bits > addr.bytes.length * 8) return fail('prefix length out of range')
  return { addr, bits }
}

/** kube's parseCIDR (its error wrapped once more by cidr(), as kube does). */
function parseCIDR(raw: string): Prefix {
  const p = parsePrefix(raw)
  const prefix = 'network address parse error during conversion from string'
  if (typeof p === 'string') throw celError(`${prefix}: ${prefix}: ${p}`)
  if (is4in6(p.addr)) throw celError(`${prefix}: IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`)
  return p
}

/** The first `bits` bits of an address, the rest zero. */
function masked(a: Addr, bits: number): Addr {
  return {
    bytes: a.bytes.map((b, i) => (i * 8 >= bits ? 0 : i * 8 + 8 <= bits ? b : b & (0xff << (8 - (bits - i * 8))))),
    zone: '',
  }
}

const sameBits = (a: Addr, b: Addr, bits: number) =>
  a.bytes.length === b.bytes.length && addrString(masked(a, bits)) === addrString(masked(b, bits))

const ipValue = (a: Addr) => celMap(new Map([[IP_KEY, addrString(a)]]))
const cidrValue = (p: Prefix) => celMap(new Map([[CIDR_KEY, `${addrString(p.addr)}/${p.bits}`]]))

function ipOf(m: ReadonlyMap<unknown, unknown>): Addr {
  const raw = m.get(IP_KEY)
  if (typeof raw !== 'string') throw celError('no such overload')
  return parseAddr(raw) as Addr
}

function cidrOf(m: ReadonlyMap<unknown, unknown>): Prefix {
  const raw = m.get(CIDR_KEY)
  if (typeof raw !== 'string') throw celError('no such overload')
  return parsePrefix(raw) as Prefix
}

const v4 = (a: Addr) => a.bytes.length === 4
const allZero = (a: Addr) => a.bytes.every((b) => b === 0)
const loopback = (a: Addr) =>
  v4(a) ? a.bytes[0] === 127 : a.bytes.slice(0, 15).every((b) => b === 0) && a.bytes[15] === 1
const multicast = (a: Addr) => (v4(a) ? (a.bytes[0]! & 0xf0) === 0xe0 : a.bytes[0] === 0xff)
const linkLocalUnicast = (a: Addr) =>
  v4(a) ? a.bytes[0] === 169 && a.bytes[1] === 254 : a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80
const linkLocalMulticast = (a: Addr) =>
  v4(a)
    ? a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0
    : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02

/** Whether the prefix holds the address (netip.Prefix.Contains). */
const contains = (p: Prefix, a: Addr) => a.zone === '' && sameBits(p.addr, a, p.bits)

export const NET_FUNCS: CelFunc[] = [
  celFunc('ip', [STRING], MAP, (s) => ipValue(parseIP(s))),
  celFunc('isIP', [STRING], BOOL, (s) => {
    const a = parseAddr(s)
    return typeof a !== 'string' && a.zone === '' && !is4in6(a)
  }),
  celFunc('ip.isCanonical', [STRING], BOOL, (s) => addrString(parseIP(s)) === s),
  celMethod('family', MAP, [], INT, function () {
    return v4(ipOf(this)) ? 4n : 6n
  }),
  celMethod('isUnspecified', MAP, [], BOOL, function () {
    return allZero(ipOf(this))
  }),
  celMethod('isLoopback', MAP, [], BOOL, function () {
    return loopback(ipOf(this))
  }),
  celMethod('isLinkLocalMulticast', MAP, [], BOOL, function () {
    return linkLocalMulticast(ipOf(this))
  }),
  celMethod('isLinkLocalUnicast', MAP, [], BOOL, function () {
    return linkLocalUnicast(ipOf(this))
  }),
  celMethod('isGlobalUnicast', MAP, [], BOOL, function () {
    const a = ipOf(this)
    if (v4(a) && (allZero(a) || a.bytes.every((b) => b === 255))) return false
    return !allZero(a) && !loopback(a) && !multicast(a) && !linkLocalUnicast(a)
  }),
  celFunc('cidr', [STRING], MAP, (s) => cidrValue(parseCIDR(s))),
  celFunc('isCIDR', [STRING], BOOL, (s) => {
    const p = parsePrefix(s)
    return typeof p !== 'string' && !is4in6(p.addr)
  }),
  celMethod('containsIP', MAP, [DYN], BOOL, function (other) {
    const a = typeof other === 'string' ? parseIP(other) : ipOf(other as ReadonlyMap<unknown, unknown>)
    return contains(cidrOf(this), a)
  }),
  celMethod('containsCIDR', MAP, [DYN], BOOL, function (other) {
    const p = cidrOf(this)
    const o = typeof other === 'string' ? parseCIDR(other) : cidrOf(other as ReadonlyMap<unknown, unknown>)
    // Overlaps and no longer a prefix than the other's.
    return p.bits <= o.bits && sameBits(p.addr, o.addr, p.bits)
  }),
  celMethod('ip', MAP, [], MAP, function () {
    return ipValue(cidrOf(this).addr)
  }),
  celMethod('masked', MAP, [], MAP, function () {
    const p = cidrOf(this)
    return cidrValue({ addr: masked(p.addr, p.bits), bits: p.bits })
  }),
  celMethod('prefixLength', MAP, [], INT, function () {
    return BigInt(cidrOf(this).bits)
  }),
  celFunc('string', [MAP], STRING, (m) => {
    const text = m.get(IP_KEY) ?? m.get(CIDR_KEY)
    if (typeof text !== 'string') throw celError('no such overload')
    return text
  }),
]
