// apimachinery's GetWarningsForCIDR (pkg/util/validation/ip.go, 1.33): the Warnings a CIDR that validation accepted
// still gets: host bits set after the prefix (ambiguous), IPv4 fields or a prefix length with leading zeros
// (non-standard), an IPv6 prefix not written in RFC 5952 form.
import { cidrNet } from '../strategies/service/ip-checks'

/** net.IP.String() of 4 or 16 bytes: dotted decimal, or RFC 5952 (the longest run of two or more zero groups as ::). */
function ipString(bytes: number[]): string {
  if (bytes.length === 4) return bytes.join('.')
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!)
  let start = -1
  let len = 1
  for (let i = 0; i < 8; i++) {
    let j = i
    while (j < 8 && words[j] === 0) j++
    if (j - i >= 2 && j - i > len) [start, len] = [i, j - i]
  }
  let out = ''
  for (let i = 0; i < 8; i++) {
    if (i === start) {
      out += '::'
      i += len - 1
      continue
    }
    if (i > 0 && !out.endsWith(':')) out += ':'
    out += words[i]!.toString(16)
  }
  return out
}

function masked(bytes: number[], bits: number): number[] {
  return bytes.map((b, i) => b & ((0xff << (8 - Math.max(0, Math.min(8, bits - i * 8)))) & 0xff))
}

/** The warnings for `value` at `field` (a CIDR validation accepted; none when it does not parse). */
export function cidrWarnings(field: string, value: string): string[] {
  const net = cidrNet(value)
  const slash = value.indexOf('/')
  const addrText = value.slice(0, slash)
  // An IPv4-mapped IPv6 prefix is left alone here (kube would call it non-standard).
  if (!net || (net.bytes.length === 4 && addrText.includes(':'))) return []
  const warnings: string[] = []
  const network = masked(net.bytes, net.bits)
  const ipnet = `${ipString(network)}/${net.bits}`
  const ambiguous = network.some((b, i) => b !== net.bytes[i])
  if (ambiguous) {
    const single = `${ipString(net.bytes)}/${net.bytes.length * 8}`
    warnings.push(`${field}: CIDR value "${value}" is ambiguous in this context (should be "${ipnet}" or "${single}"?)`)
  }
  const bitsText = value.slice(slash + 1)
  const leadingZero =
    (bitsText.length > 1 && bitsText.startsWith('0')) ||
    (net.bytes.length === 4 && addrText.split('.').some((f) => f.length > 1 && f.startsWith('0')))
  if (leadingZero)
    warnings.push(
      `${field}: non-standard CIDR value "${value}" will be considered invalid in a future Kubernetes release: use "${ipnet}"`,
    )
  const prefix = `${ipString(net.bytes)}/${net.bits}`
  if (net.bytes.length === 16 && !leadingZero && prefix !== value && !ambiguous)
    warnings.push(`${field}: IPv6 CIDR value "${value}" should be in RFC 5952 canonical format ("${prefix}")`)
  return warnings
}
