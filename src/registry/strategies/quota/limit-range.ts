// The LimitRange strategy: kube's ValidateLimitRange (limit types, resource names per type, min <= default request
// <= default <= max, ratios, non-overcommitable defaults) and the `kubectl get limits` table (NAME CREATED AT).
import type { LimitRange, LimitRangeItem } from '../../../schema/limit-range'
import type { ObjectMeta } from '../../../schema/meta'
import { compareUtf8 } from '../../go-strings'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { isStandardLimitRangeType } from '../../quota/quota-names'
import type { Strategy } from '../../strategy'
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import { isQualifiedName, nameIsDNSSubdomain } from '../../validation/names'
import { invalidGo } from '../pod/pod-validation-formats'
import {
  cmpQuantity,
  isOvercommitAllowed,
  quantityString,
  validateContainerResourceName,
  validateResourceName,
} from '../pod/pod-validation-quantities'
import { quantityScaledValue } from '../../../schema/quantity'

type LR = LimitRange & { metadata: ObjectMeta }
type List = Record<string, string | number>

const MAX_MILLI_VALUE = 9223372036854775807n / 1000n

/** validateLimitRangeTypeName. */
function validateTypeName(value: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(value).map((m) => fieldError.invalid(path.toString(), value, m))
  if (errs.length) return errs
  if (!value.includes('/') && !isStandardLimitRangeType(value))
    errs.push(fieldError.invalid(path.toString(), value, 'must be a standard limit type or fully qualified'))
  return errs
}

/** validateLimitRangeResourceName: container names for Pod and Container items, any resource name otherwise. */
const validateItemResourceName = (type: string, name: string, path: FieldPath) =>
  type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, path) : validateResourceName(name, path)

const sorted = (m: List | undefined) => Object.keys(m ?? {}).sort(compareUtf8)
const qs = quantityString
/** A Quantity passed to field.Invalid (kube prints it through its String method here). */
const invalidQ = (path: FieldPath, q: string | number, detail: string) => invalidGo(path.toString(), qs(q), detail)

/** Go's %f of a float64. */
const goFloat = (n: number) => (Number.isFinite(n) ? n.toFixed(6) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN')

function validateRatio(k: string, min: string | number, max: string | number, ratio: string | number, at: FieldPath) {
  const value = (q: string | number) => quantityScaledValue(q, 0) ?? 0n
  const milli = (q: string | number) => quantityScaledValue(q, -3) ?? 0n
  let ratioValue = Number(value(ratio))
  let minValue = value(min)
  let maxValue = value(max)
  if (value(ratio) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
    ratioValue = Number(milli(ratio)) / 1000
    minValue = milli(min)
    maxValue = milli(max)
  }
  const limit = Number(maxValue) / Number(minValue)
  if (ratioValue > limit)
    return [
      invalidQ(
        at.child('maxLimitRequestRatio').key(k),
        ratio,
        `ratio ${qs(ratio)} is greater than max/min = ${goFloat(limit)}`,
      ),
    ]
  return []
}

function validateItem(limit: LimitRangeItem, idx: FieldPath, seen: Set<string>): FieldError[] {
  const errs: FieldError[] = []
  const type = limit.type ?? ''
  errs.push(...validateTypeName(type, idx.child('type')))
  if (seen.has(type)) errs.push(fieldError.duplicate(idx.child('type').toString(), type))
  seen.add(type)
  const keys = new Set<string>()
  const named = (field: 'max' | 'min' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio') => {
    for (const k of sorted(limit[field])) {
      errs.push(...validateItemResourceName(type, k, idx.child(field).key(k)))
      keys.add(k)
    }
  }
  named('max')
  named('min')
  if (type === 'Pod') {
    if (Object.keys(limit.default ?? {}).length)
      errs.push(fieldError.forbidden(idx.child('default').toString(), "may not be specified when `type` is 'Pod'"))
    if (Object.keys(limit.defaultRequest ?? {}).length)
      errs.push(
        fieldError.forbidden(idx.child('defaultRequest').toString(), "may not be specified when `type` is 'Pod'"),
      )
  } else {
    named('default')
    named('defaultRequest')
  }
  if (type === 'PersistentVolumeClaim' && limit.min?.storage === undefined && limit.max?.storage === undefined)
    errs.push(
      fieldError.required(
        idx.child('limits').toString(),
        'either minimum or maximum storage value is required, but neither was provided',
      ),
    )
  named('maxLimitRequestRatio')
  const defaults = type === 'Pod' ? {} : (limit.default ?? {})
  const requests = type === 'Pod' ? {} : (limit.defaultRequest ?? {})
  for (const k of [...keys].sort(compareUtf8)) {
    const min = limit.min?.[k]
    const max = limit.max?.[k]
    const def = defaults[k]
    const req = requests[k]
    const ratio = limit.maxLimitRequestRatio?.[k]
    if (min !== undefined && max !== undefined && cmpQuantity(min, max) > 0)
      errs.push(invalidQ(idx.child('min').key(k), min, `min value ${qs(min)} is greater than max value ${qs(max)}`))
    if (req !== undefined && min !== undefined && cmpQuantity(min, req) > 0)
      errs.push(
        invalidQ(
          idx.child('defaultRequest').key(k),
          req,
          `min value ${qs(min)} is greater than default request value ${qs(req)}`,
        ),
      )
    if (req !== undefined && max !== undefined && cmpQuantity(req, max) > 0)
      errs.push(
        invalidQ(
          idx.child('defaultRequest').key(k),
          req,
          `default request value ${qs(req)} is greater than max value ${qs(max)}`,
        ),
      )
    if (req !== undefined && def !== undefined && cmpQuantity(req, def) > 0)
      errs.push(
        invalidQ(
          idx.child('defaultRequest').key(k),
          req,
          `default request value ${qs(req)} is greater than default limit value ${qs(def)}`,
        ),
      )
    if (def !== undefined && min !== undefined && cmpQuantity(min, def) > 0)
      errs.push(
        invalidQ(idx.child('default').key(k), min, `min value ${qs(min)} is greater than default value ${qs(def)}`),
      )
    if (def !== undefined && max !== undefined && cmpQuantity(def, max) > 0)
      errs.push(
        invalidQ(idx.child('default').key(k), max, `default value ${qs(def)} is greater than max value ${qs(max)}`),
      )
    if (ratio !== undefined && cmpQuantity(ratio, 1) < 0)
      errs.push(invalidQ(idx.child('maxLimitRequestRatio').key(k), ratio, `ratio ${qs(ratio)} is less than 1`))
    if (ratio !== undefined && min !== undefined && max !== undefined)
      errs.push(...validateRatio(k, min, max, ratio, idx))
    if (!isOvercommitAllowed(k) && def !== undefined && req !== undefined && cmpQuantity(def, req) !== 0)
      errs.push(
        invalidQ(
          idx.child('defaultRequest').key(k),
          req,
          `default value ${qs(def)} must equal to defaultRequest value ${qs(req)} in ${k}`,
        ),
      )
  }
  return errs
}

/** ValidateLimitRange without the metadata (the generic store validates that). */
function validateLimitRange(lr: LR): FieldError[] {
  const seen = new Set<string>()
  const path = new FieldPath('spec').child('limits')
  return (lr.spec?.limits ?? []).flatMap((limit, i) => validateItem(limit, path.index(i), seen))
}

export const limitRangeStrategy: Strategy<LR> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: (lr) => {
    // LimitRangeSpec.Limits has no omitempty: a spec without limits is written with "limits": null.
    // Spec is a struct value upstream: always written, with "limits": null when it has none.
    lr.spec ??= {}
    if (lr.spec.limits === undefined) lr.spec.limits = null
    for (const item of lr.spec.limits ?? []) if (item) defaultContainerItem(item as DefaultedItem)
  },
  prepareForCreate: () => undefined,
  validate: validateLimitRange,
  prepareForUpdate: () => undefined,
  validateUpdate: validateLimitRange,
  selectableFields: (lr) => ({
    'metadata.name': lr.metadata.name ?? '',
    'metadata.namespace': lr.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: CREATION_DOC, priority: 0 },
    ],
    cells: (lr) => [lr.metadata.name ?? '', lr.metadata.creationTimestamp ?? '0001-01-01T00:00:00Z'],
  },
}

/**
 * kube's SetDefaults_LimitRangeItem for a Container item: a resource with a max and no default limit defaults to the
 * max, a default limit with no default request gives the request, and a min with neither gives the request. Empty
 * results stay out (ResourceList is omitempty).
 */
type ResourceMap = Record<string, unknown>
interface DefaultedItem {
  type?: string
  max?: ResourceMap
  min?: ResourceMap
  default?: ResourceMap
  defaultRequest?: ResourceMap
}

function defaultContainerItem(item: DefaultedItem): void {
  if (item.type !== 'Container') return
  const defaults: ResourceMap = { ...(item.default ?? {}) }
  const requests: ResourceMap = { ...(item.defaultRequest ?? {}) }
  for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in defaults)) defaults[k] = v
  for (const [k, v] of Object.entries(defaults)) if (!(k in requests)) requests[k] = v
  for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in requests)) requests[k] = v
  if (Object.keys(defaults).length > 0) item.default = defaults
  if (Object.keys(requests).length > 0) item.defaultRequest = requests
}
