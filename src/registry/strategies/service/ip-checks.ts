// IP address and CIDR checks services and endpoints share: parsing to bytes (as netutils.ParseIPSloppy does),
// ValidateNonSpecialIP and IsValidCIDR, with kube's wording.
import { fieldError, type FieldError } from '../../field-errors'
import { ipFamily } from '../pod/pod-validation-formats'

/** The 4 (IPv4, including IPv4-mapped IPv6) or 16 bytes of an address, or null when it is not one. */
function ipBytes(value: string): number[] | null {
  const family = ipFamily(value)
  if (family === null) return null
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(value)
  if (family === 4 && dotted) return dotted.slice(1).map(Number)
  const [head = '', tail] = value.toLowerCase().split('::') as [string, string | undefined]
  const words = (s: string) => (s === '' ? [] : s.split(':'))
  const h = words(head)
  let t = tail === undefined ? [] : words(tail)
  // A trailing dotted quad stands for the last two 16-bit words.
  const last = t.length > 0 ? t[t.length - 1]! : h[h.length - 1]
  let quad: number[] = []
  if (last?.includes('.')) {
    quad = last.split('.').map(Number)
    if (t.length > 0) t = t.slice(0, -1)
    else h.pop()
  }
  const fill = 8 - h.length - t.length - quad.length / 2
  const all = [...h, ...Array<string>(tail === undefined ? 0 : fill).fill('0'), ...t].map((w) => parseInt(w, 16))
  const bytes = all.flatMap((w) => [w >> 8, w & 0xff]).concat(quad)
  if (family === 4) return bytes.slice(12)
  return bytes.length === 16 ? bytes : null
}

/** ValidateNonSpecialIP: no unspecified, loopback, link-local or link-local multicast addresses. */
export function validateNonSpecialIP(value: string, field: string): FieldError[] {
  const b = ipBytes(value)
  if (!b) return [fieldError.invalid(field, value, 'must be a valid IP address')]
  const errs: FieldError[] = []
  const v4 = b.length === 4
  if (b.every((x) => x === 0)) errs.push(fieldError.invalid(field, value, `may not be unspecified (${value})`))
  const loopback = v4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1
  if (loopback) errs.push(fieldError.invalid(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'))
  const linkLocal = v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80
  if (linkLocal)
    errs.push(fieldError.invalid(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'))
  const linkLocalMulticast = v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02
  if (linkLocalMulticast) {
    errs.push(
      fieldError.invalid(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'),
    )
  }
  return errs
}

/** IsValidCIDR (legacy flavour, as shipped while StrictIPCIDRValidation is off). */
export function validateCIDR(value: string, field: string): FieldError[] {
  const slash = value.indexOf('/')
  const ip = slash < 0 ? '' : value.slice(0, slash)
  const bits = slash < 0 ? '' : value.slice(slash + 1)
  const family = ipFamily(ip)
  const max = family === 6 ? 128 : 32
  if (family !== null && /^\d{1,3}$/.test(bits) && Number(bits) <= max) return []
  return [fieldError.invalid(field, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')]
}

/** A valid CIDR's address bytes and prefix length (netutils.ParseCIDRSloppy), or null. */
export function cidrNet(value: string): { bytes: number[]; bits: number } | null {
  if (validateCIDR(value, '').length) return null
  const slash = value.indexOf('/')
  const bytes = ipBytes(value.slice(0, slash))
  return bytes ? { bytes, bits: Number(value.slice(slash + 1)) } : null
}
