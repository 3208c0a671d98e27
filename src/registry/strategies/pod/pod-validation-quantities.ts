// Quantities and resource names as pod validation judges them (k8s.io/kubernetes pkg/apis/core/validation,
// pkg/apis/core/helper of 1.33): exact comparison and sums, the standard, native, extended and huge-page resource
// names, and a quantity's value for its resource.
import {
  canonicalQuantity,
  compareQuantities,
  type ParsedQuantity,
  parseQuantity,
  quantityScaledValue,
} from '../../../schema/quantity'
import { type FieldError, type FieldPath, fieldError } from '../../field-errors'
import { isQualifiedName } from '../../validation/names'
import { IS_NEGATIVE_ERROR_MSG, invalidGo } from './pod-validation-formats'

const IS_NOT_INTEGER_ERROR_MSG = 'must be an integer'

type QuantityInput = string | number

/** Quantity.String(): what kube prints for a quantity in an error. */
export const quantityString = (q: QuantityInput): string => canonicalQuantity(q) ?? String(q)

export const isNegativeQuantity = (q: QuantityInput): boolean => (parseQuantity(q)?.mantissa ?? 0n) < 0n
export const isPositiveQuantity = (q: QuantityInput): boolean => (parseQuantity(q)?.mantissa ?? 0n) > 0n

/** Exact comparison; an unparseable quantity (the decoder refuses those) compares as zero. */
export function cmpQuantity(a: QuantityInput | ParsedQuantity, b: QuantityInput | ParsedQuantity): -1 | 0 | 1 {
  const pa = typeof a === 'object' ? a : (parseQuantity(a) ?? ZERO)
  const pb = typeof b === 'object' ? b : (parseQuantity(b) ?? ZERO)
  return compareQuantities(pa, pb)
}

export const ZERO: ParsedQuantity = { mantissa: 0n, exponent: 0, format: 'DecimalSI' }

/** Exact sum of two quantities (Quantity.Add); the format of the first wins, as in Go. */
export function addQuantities(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  const e = Math.min(a.exponent, b.exponent)
  const m = a.mantissa * 10n ** BigInt(a.exponent - e) + b.mantissa * 10n ** BigInt(b.exponent - e)
  return { mantissa: m, exponent: e, format: a.format }
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage'])
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
])
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
])

export const isHugePageResourceName = (name: string) => name.startsWith('hugepages-')
/** IsNativeResource: unprefixed, or in the kubernetes.io namespace. */
const isNativeResource = (name: string) => !name.includes('/') || name.includes('kubernetes.io/')
export const isOvercommitAllowed = (name: string) => isNativeResource(name) && !isHugePageResourceName(name)
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false
  return isQualifiedName(`requests.${name}`).length === 0
}
const isStandardResourceName = (name: string) =>
  STANDARD_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-')
const isIntegerResourceName = (name: string) => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name)

export function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const at = path.toString()
  const errs = isQualifiedName(name).map((m) => fieldError.invalid(at, name, m))
  if (errs.length > 0) return errs
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errs.push(fieldError.invalid(at, name, 'must be a standard resource type or fully qualified'))
  }
  return errs
}

/** validateContainerResourceName. */
export function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path)
  const at = path.toString()
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePageResourceName(name)) {
      errs.push(fieldError.invalid(at, name, 'must be a standard resource for containers'))
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldError.invalid(at, name, "doesn't follow extended resource name standard"))
  }
  return errs
}

/**
 * ValidateResourceQuantityValue: not negative, and whole for integer resources. The integer error passes the
 * resource.Quantity itself, which field.Error prints through its String method: unquoted.
 */
export function validateResourceQuantityValue(name: string, q: QuantityInput, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const at = path.toString()
  if (isNegativeQuantity(q)) errs.push(fieldError.invalid(at, quantityString(q), IS_NEGATIVE_ERROR_MSG))
  if (isIntegerResourceName(name)) {
    const milli = quantityScaledValue(q, -3)
    if (milli !== null && milli % 1000n !== 0n) errs.push(invalidGo(at, quantityString(q), IS_NOT_INTEGER_ERROR_MSG))
  }
  return errs
}

/** helper.IsHugePageResourceValueDivisible. */
export function isHugePageValueDivisible(name: string, q: QuantityInput): boolean {
  const pageSize = parseQuantity(name.slice('hugepages-'.length))
  if (!pageSize || pageSize.mantissa <= 0n) return false
  const pageMilli = quantityScaledValue(pageSize, -3)
  if (pageMilli === null || pageMilli % 1000n !== 0n) return false
  const value = quantityScaledValue(q, 0)
  const page = quantityScaledValue(pageSize, 0)
  return value !== null && page !== null && page !== 0n && value % page === 0n
}
