// Value formats and small validators the pod validation shares: port names and numbers, environment variable names,
// config keys, IP addresses, label names and selectors, and the Go renderings kube prints for non-scalar bad values
// (quantities and resource names: ./pod-validation-quantities.ts). Wording follows k8s.io/apimachinery
// pkg/util/validation and pkg/apis/core/validation as shipped with Kubernetes 1.33.
import { fieldError, formatValue, type FieldError, type FieldPath } from '../../field-errors'
import {
  byteLength,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maxLenError,
  regexError,
} from '../../validation/names'
import type { LabelSelector } from './pod-types'
import { compareUtf8, goQuote } from '../../go-strings'

export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0'
export const IS_NOT_POSITIVE_ERROR_MSG = 'must be greater than zero'
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable'
export const FILE_MODE_ERROR_MSG = 'must be a number between 0 and 0777 (octal), both inclusive'
export const MAX_INT32 = 2147483647

export const inclusiveRangeError = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`

/** A list that may be absent, as Go's nil slice. */
export const list = <T>(value: readonly T[] | undefined | null): readonly T[] => value ?? []
/** A string that may be absent, as Go's "" zero value. */
export const str = (value: string | undefined | null): string => value ?? ''

// ---------------------------------------------------------------------------------------------------------------
// Field errors whose bad value kube prints with Go's %#v (structs, maps, slices of structs).

/** An Invalid error whose value is already rendered the way Go prints it. */
export function invalidGo(field: string, goText: string, detail?: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${goText}${detail ? `: ${detail}` : ''}` }
}

/** A Duplicate error whose value is already rendered the way Go prints it. */
export function duplicateGo(field: string, goText: string): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${goText}` }
}

/** A NotFound error with kube's optional detail (validateResourceClaimNames sets one). */
export function notFoundWithDetail(field: string, value: unknown, detail: string): FieldError {
  return { ...fieldError.notFound(field, value), message: `Not found: ${formatValue(value)}: ${detail}` }
}

/** %#v of map[string]string: keys sorted, as fmt prints maps. */
export function goStringMap(map: Record<string, string> | undefined): string {
  const entries = Object.keys(map ?? {})
    .sort(compareUtf8)
    .map((k) => `${goQuote(k)}:${goQuote(map![k]!)}`)
  return `map[string]string{${entries.join(', ')}}`
}

/**
 * A pointer field inside a %#v struct rendering. Real addresses differ per process, so a fixed one stands in, as
 * object-meta.ts does for owner references.
 */
export const goPtr = (type: string, value: unknown) =>
  value === undefined ? `(${type})(nil)` : `(${type})(0xc000000000)`

/** %#v of a struct given [GoName, rendered value] pairs. */
export const goStruct = (type: string, fields: [string, string][]) =>
  `${type}{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`

/** %#v of a v1.LabelSelector value. */
export function goLabelSelector(sel: LabelSelector | undefined): string {
  const labels = sel?.matchLabels ? goStringMap(sel.matchLabels) : 'map[string]string(nil)'
  const exprs = sel?.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${sel.matchExpressions
        .map((e) =>
          goStruct('v1.LabelSelectorRequirement', [
            ['Key', goQuote(e.key)],
            ['Operator', goQuote(e.operator)],
            ['Values', e.values ? `[]string{${e.values.map(goQuote).join(', ')}}` : '[]string(nil)'],
          ]),
        )
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)'
  return goStruct('v1.LabelSelector', [
    ['MatchLabels', labels],
    ['MatchExpressions', exprs],
  ])
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers, ports, names

/** IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)]
}

/** IsValidPortName: an IANA_SVC_NAME. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = []
  if (byteLength(port) > 15) errs.push(maxLenError(15))
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)')
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)')
  if (port.includes('--')) errs.push('must not contain consecutive hyphens')
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen')
  return errs
}

/** ValidatePortNumOrName: an int-or-string probe or handler port. */
export function validatePortNumOrName(port: number | string, path: FieldPath): FieldError[] {
  const at = path.toString()
  if (typeof port === 'number') return isValidPortNum(port).map((m) => fieldError.invalid(at, port, m))
  return isValidPortName(port).map((m) => fieldError.invalid(at, port, m))
}

const UID_MAX = 0xffffffff
/** IsValidUserID / IsValidGroupID: 0 to 2^32-1. */
export function isValidUnixID(id: number): string[] {
  return id >= 0 && id <= UID_MAX ? [] : [inclusiveRangeError(0, UID_MAX)]
}

/**
 * IsRelaxedEnvVarName. RelaxedEnvironmentVariableValidation is beta and on by default since 1.32, so 1.33 accepts any
 * printable ASCII except '='.
 */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = []
  if (value.length === 0) errs.push('environment variable name must be non-empty')
  for (const ch of value) {
    const code = ch.codePointAt(0)!
    if (code < 0x20 || code > 0x7e || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='")
      break
    }
  }
  return errs
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"]
  if (value === '..') return ["must not be '..'"]
  if (value.startsWith('..')) return ["must not start with '..'"]
  return []
}

/** IsConfigMapKey: keys of ConfigMaps and Secrets. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 253) errs.push(maxLenError(253))
  if (!/^[-._a-zA-Z0-9]+$/.test(value)) {
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        '[-._a-zA-Z0-9]+',
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    )
  }
  errs.push(...hasChDirPrefix(value))
  return errs
}

/** IsHTTPHeaderName. */
export function isHTTPHeaderName(value: string): string[] {
  if (/^[-A-Za-z0-9]+$/.test(value)) return []
  return [
    regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name'),
  ]
}

/** ValidateNameFunc for secrets, config maps, service accounts, priority classes, nodes: a DNS subdomain. */
export function nameIsSubdomain(name: string, prefix: boolean): string[] {
  // maskTrailingDash, quirk included (see names.ts).
  const masked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name
  return isDNS1123Subdomain(masked)
}

export function validateDNS1123Label(value: string, path: FieldPath): FieldError[] {
  return isDNS1123Label(value).map((m) => fieldError.invalid(path.toString(), value, m))
}

export function validateDNS1123Subdomain(value: string, path: FieldPath): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => fieldError.invalid(path.toString(), value, m))
}

/** ValidateQualifiedName / ValidateLabelName. */
export function validateQualifiedName(value: string, path: FieldPath): FieldError[] {
  return isQualifiedName(value).map((m) => fieldError.invalid(path.toString(), value, m))
}

/** ValidateLabelSelector with AllowInvalidLabelValueInSelector off (the value of every pod create). */
export function validateLabelSelector(selector: LabelSelector | undefined, path: FieldPath): FieldError[] {
  if (!selector) return []
  const errs: FieldError[] = []
  const labelsPath = path.child('matchLabels').toString()
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    errs.push(...isQualifiedName(k).map((m) => fieldError.invalid(labelsPath, k, m)))
    errs.push(...isValidLabelValue(v).map((m) => fieldError.invalid(labelsPath, v, m)))
  }
  list(selector.matchExpressions).forEach((expr, i) => {
    const p = path.child('matchExpressions').index(i)
    const values = list(expr.values)
    switch (str(expr.operator)) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(
            fieldError.required(p.child('values').toString(), "must be specified when `operator` is 'In' or 'NotIn'"),
          )
        }
        break
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(
            fieldError.forbidden(
              p.child('values').toString(),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          )
        }
        break
      default:
        errs.push(
          fieldError.invalid(p.child('operator').toString(), str(expr.operator), 'not a valid selector operator'),
        )
    }
    errs.push(...validateQualifiedName(str(expr.key), p.child('key')))
    values.forEach((v, j) => {
      errs.push(...isValidLabelValue(v).map((m) => fieldError.invalid(p.child('values').index(j).toString(), v, m)))
    })
  })
  return errs
}

// ---------------------------------------------------------------------------------------------------------------
// IP addresses

/** netutils.ParseIPSloppy: IPv4 fields may carry leading zeros (read as decimal). */
export function ipFamily(value: string): 4 | 6 | null {
  if (/^\d+(\.\d+){3}$/.test(value)) return value.split('.').every((p) => Number(p) <= 255) ? 4 : null
  if (!value.includes(':') || value.includes('%') || value.includes('[') || value.includes('/')) return null
  try {
    const host = new URL(`http://[${value}]/`).hostname
    if (!host.startsWith('[')) return null
  } catch {
    return null
  }
  // An IPv4-mapped IPv6 address counts as IPv4, as net.IP.To4 sees it.
  return /^::ffff:(\d+\.\d+\.\d+\.\d+|[0-9a-f]{1,4}:[0-9a-f]{1,4})$/i.test(value) ? 4 : 6
}

/** IsValidIP (legacy flavour: StrictIPCIDRValidation is alpha and off in 1.33). */
export function validateIP(value: string, path: FieldPath): FieldError[] {
  if (ipFamily(value) !== null) return []
  return [fieldError.invalid(path.toString(), value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')]
}

/** netutils.IsDualStackIPStrings, for lists already known to hold valid addresses. */
export function isDualStack(ips: readonly string[]): boolean {
  const families = new Set(ips.map(ipFamily))
  return families.has(4) && families.has(6)
}
