// The string formats a CRD schema may ask kube to check (apiextensions pkg/apiserver/validation/formats.go lists
// them; kube-openapi strfmt and govalidator check them). Any other format is ignored, as kube strips it.
import { ipFamily } from '../strategies/pod/pod-validation-formats'
import { compileGoRegexp } from '../crd/go-regexp'

const SUPPORTED = new Set([
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
])

/** go-openapi's normalization of a format name: dashes dropped (date-time is datetime). */
const normalized = (format: string) => format.replaceAll('-', '')

export const isSupportedFormat = (format: string) => SUPPORTED.has(normalized(format))

/**
 * A Go regexp compiled on its first use, not at module load: HOSTNAME's \p{S}/\p{L} classes cost about 150 ms to
 * compile, which every isolate (so every `npm start`) paid before its first answer.
 */
const re = (pattern: string) => {
  let compiled: { test(s: string): boolean } | undefined
  return {
    test(s: string): boolean {
      if (!compiled) {
        const hit = compileGoRegexp(pattern)
        if ('error' in hit) throw new Error(hit.error)
        compiled = hit.re
      }
      return compiled.test(s)
    },
  }
}

const HOSTNAME = re(
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$',
)
const UUID = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$')
const UUID3 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$')
const UUID4 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$')
const UUID5 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$')
const DATE_TIME_TAIL = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/

/** time.Parse("2006-01-02", s): exactly that layout, a real calendar day. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (mo < 1 || mo > 12 || d < 1) return false
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate()
}

/** strfmt.IsDateTime. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false
  const parts = s.toLowerCase().split('t')
  if (parts.length < 2 || !isDate(parts[0]!)) return false
  const m = DATE_TIME_TAIL.exec(parts[1]!)
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59'
}

const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/
const SCALA_UNITS = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
]

/** strfmt.ParseDuration: Go's time.ParseDuration, else Scala's "3 days" style. */
function isDuration(s: string): boolean {
  if (s === '0' || GO_DURATION.test(s)) return true
  let ok = false
  for (const m of s.matchAll(/((\d+)\s*([A-Za-zµ]+))/g)) {
    const unit = m[3]!.trim().toLowerCase()
    for (const variants of SCALA_UNITS) {
      const last = variants.length - 1
      if (variants.some((v, i) => (i === last && unit.startsWith(v)) || v === unit)) ok = true
    }
  }
  return ok
}

/** net.ParseCIDR: an address and a prefix length its family allows. */
function isCIDR(s: string): boolean {
  const slash = s.indexOf('/')
  if (slash < 0) return false
  const family = ipFamily(s.slice(0, slash))
  const bits = s.slice(slash + 1)
  if (family === null || !/^\d{1,3}$/.test(bits)) return false
  return Number(bits) <= (s.slice(0, slash).includes(':') ? 128 : 32)
}

/** url.ParseRequestURI as govalidator.IsRequestURI uses it: an absolute URI or an absolute path. */
function isRequestURI(s: string): boolean {
  if (s.startsWith('/')) return !/\s/.test(s)
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(s)
}

const isMAC = (s: string) =>
  /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(s) ||
  /^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$/.test(s) ||
  /^([0-9a-fA-F]{2}[:-]){19}[0-9a-fA-F]{2}$/.test(s) ||
  /^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$/.test(s) ||
  /^([0-9a-fA-F]{4}\.){3}[0-9a-fA-F]{4}$/.test(s) ||
  /^([0-9a-fA-F]{4}\.){9}[0-9a-fA-F]{4}$/.test(s)

function isISBN(s: string, version: 10 | 13): boolean {
  const digits = s.replace(/[\s-]/g, '')
  if (version === 10) {
    if (!/^\d{9}[\dX]$/.test(digits)) return false
    let sum = 0
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(digits[i])
    sum += digits[9] === 'X' ? 100 : 10 * Number(digits[9])
    return sum % 11 === 0
  }
  if (!/^\d{13}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3)
  return (10 - (sum % 10)) % 10 === Number(digits[12])
}

function isCreditCard(s: string): boolean {
  const digits = s.replace(/[^0-9]/g, '')
  if (
    !/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/.test(
      digits,
    )
  )
    return false
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i])
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

function isEmail(s: string): boolean {
  const angle = /<([^<>]+)>\s*$/.exec(s)
  const addr = angle ? angle[1]! : s.trim()
  return /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+$/.test(addr)
}

const CHECKS: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: (s) => HOSTNAME.test(s) && s.length <= 255 && s.split('.').every((p) => p.length <= 63),
  ipv4: (s) => ipFamily(s) !== null && s.includes('.'),
  ipv6: (s) => ipFamily(s) !== null && s.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) =>
    /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/.test(
      s,
    ),
  byte: (s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
}

/** Whether `s` has the (supported) format. */
export const checkFormat = (format: string, s: string): boolean => CHECKS[normalized(format)]?.(s) ?? true
