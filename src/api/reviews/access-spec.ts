// The spec of the access reviews (SubjectAccessReview, SelfSubjectAccessReview, LocalSubjectAccessReview): as Go
// writes it back, validated with kube's messages (pkg/apis/authorization/validation, 1.31-1.33), turned into the
// authorizer's attributes (pkg/registry/authorization/util helpers.go), and the selector notes kube adds to
// status.evaluationError when a field or label selector cannot be parsed (BuildEvaluationError).
import type { Attributes } from '../../registry/rbac/attributes'
import { fieldError, type FieldError } from '../../registry/field-errors'
import { parseFieldSelector } from '../../registry/field-selector'
import { type LabelOperator, newLabelRequirement } from '../../registry/label-requirement'
import { parseLabelRequirements } from '../../registry/label-selector-parser'
import type { UserInfo } from '../../registry/user-info'
import { isQualifiedName, isValidLabelValue } from '../../registry/validation/names'
import { sharpNonResourceAttributes } from './go-sharp-v'
import { field, isObject, type Json, omitEmpty, stringsOf } from './go-values'

const RESOURCE_FIELDS = ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name']

/** A Field/LabelSelectorAttributes pointer as Go writes it; undefined for a nil one. */
function goSelector(v: unknown): Json | undefined {
  if (!isObject(v)) return undefined
  const out = omitEmpty(v, ['rawSelector'])
  const reqs = Array.isArray(v.requirements) ? v.requirements : []
  if (reqs.length > 0) {
    out.requirements = reqs.map((r) => ({
      key: field(r, 'key'),
      operator: field(r, 'operator'),
      ...omitEmpty(r, ['values']),
    }))
  }
  return out
}

function goResourceAttributes(v: unknown): Json | undefined {
  if (!isObject(v)) return undefined
  const out = omitEmpty(v, RESOURCE_FIELDS)
  const fieldSelector = goSelector(v.fieldSelector)
  const labelSelector = goSelector(v.labelSelector)
  if (fieldSelector) out.fieldSelector = fieldSelector
  if (labelSelector) out.labelSelector = labelSelector
  return out
}

/** A (Self)SubjectAccessReviewSpec as Go writes it back; `subject` keeps the user fields SubjectAccessReviews have. */
export function goAccessSpec(v: unknown, subject: boolean): Json {
  const spec = isObject(v) ? v : {}
  const out: Json = {}
  const resource = goResourceAttributes(spec.resourceAttributes)
  if (resource) out.resourceAttributes = resource
  if (isObject(spec.nonResourceAttributes))
    out.nonResourceAttributes = omitEmpty(spec.nonResourceAttributes, ['path', 'verb'])
  if (subject) Object.assign(out, omitEmpty(spec, ['user', 'groups', 'extra', 'uid']))
  return out
}

/** The status a request carried, as Go holds it (it is overwritten, but the field manager saw it). */
export const goAccessStatus = (v: unknown): Json => ({
  allowed: isObject(v) && v.allowed === true,
  ...omitEmpty(v, ['denied', 'reason', 'evaluationError']),
})

const invalidStruct = (path: string, value: string, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field: path,
  message: `Invalid value: ${value}: ${detail}`,
})

const IN = new Set(['In', 'NotIn'])
const EXISTS = new Set(['Exists', 'DoesNotExist'])

/** metav1validation's selector requirement checks, unknown operators allowed (newer clients may send them). */
function validateRequirement(r: Json, path: string, label: boolean): FieldError[] {
  const errs: FieldError[] = []
  const key = field(r, 'key')
  const operator = field(r, 'operator')
  const values = stringsOf(r.values)
  if (!label && key === '') errs.push(fieldError.required(`${path}.key`, 'must be specified'))
  if (IN.has(operator) && values.length === 0) {
    errs.push(fieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"))
  } else if (EXISTS.has(operator) && values.length > 0) {
    errs.push(
      fieldError.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    )
  }
  if (!label) return errs
  for (const m of isQualifiedName(key)) errs.push(fieldError.invalid(`${path}.key`, key, m))
  values.forEach((v, i) => {
    for (const m of isValidLabelValue(v)) errs.push(fieldError.invalid(`${path}.values[${i}]`, v, m))
  })
  return errs
}

function validateSelector(sel: unknown, path: string, label: boolean): FieldError[] {
  if (!isObject(sel)) return []
  const errs: FieldError[] = []
  const raw = field(sel, 'rawSelector')
  const reqs = Array.isArray(sel.requirements) ? sel.requirements : []
  if (raw !== '' && reqs.length > 0) {
    errs.push(fieldError.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'))
  }
  if (raw === '' && reqs.length === 0) {
    errs.push(
      fieldError.required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`),
    )
  }
  reqs.forEach((r, i) => errs.push(...validateRequirement(isObject(r) ? r : {}, `${path}.requirements[${i}]`, label)))
  return errs
}

/**
 * ValidateSubjectAccessReviewSpec (`subject`) or ValidateSelfSubjectAccessReviewSpec over the Go form of the spec:
 * exactly one kind of attributes, a user or a group, and well-formed selectors.
 */
export function validateAccessSpec(spec: Json, subject: boolean): FieldError[] {
  const errs: FieldError[] = []
  const resource = spec.resourceAttributes
  const nonResource = spec.nonResourceAttributes
  if (isObject(resource) && isObject(nonResource)) {
    errs.push(
      invalidStruct(
        'spec.nonResourceAttributes',
        sharpNonResourceAttributes(nonResource),
        'cannot be specified in combination with resourceAttributes',
      ),
    )
  }
  if (!isObject(resource) && !isObject(nonResource)) {
    // kube passes the nil NonResourceAttributes, which field errors print as the string "null".
    errs.push(
      fieldError.invalid(
        'spec.resourceAttributes',
        'null',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    )
  }
  if (subject && field(spec, 'user') === '' && stringsOf(spec.groups).length === 0) {
    errs.push(fieldError.invalid('spec.user', field(spec, 'user'), 'at least one of user or group must be specified'))
  }
  if (isObject(resource)) {
    errs.push(...validateSelector(resource.fieldSelector, 'spec.resourceAttributes.fieldSelector', false))
    errs.push(...validateSelector(resource.labelSelector, 'spec.resourceAttributes.labelSelector', true))
  }
  return errs
}

/** The invalid nonResourceAttributes error a LocalSubjectAccessReview gets, with the value as kube prints it. */
export const nonResourceDisallowed = (nonResource: Json): FieldError =>
  invalidStruct(
    'spec.nonResourceAttributes',
    sharpNonResourceAttributes(nonResource),
    'disallowed on this kind of request',
  )

/** The user a SubjectAccessReview asks about: exactly its spec (no authenticated group is added). */
export function subjectOf(spec: Json): UserInfo {
  const user: UserInfo = { name: field(spec, 'user'), groups: stringsOf(spec.groups) }
  if (field(spec, 'uid') !== '') user.uid = field(spec, 'uid')
  if (isObject(spec.extra)) {
    user.extra = Object.fromEntries(Object.entries(spec.extra).map(([k, v]) => [k, stringsOf(v)]))
  }
  return user
}

/** ResourceAttributesFrom / NonResourceAttributesFrom: an empty version means every version. */
export function accessAttributes(user: UserInfo, spec: Json): Attributes {
  const r = spec.resourceAttributes
  if (isObject(r)) {
    return {
      user,
      verb: field(r, 'verb'),
      namespace: field(r, 'namespace'),
      apiGroup: field(r, 'group'),
      apiVersion: field(r, 'version') || '*',
      resource: field(r, 'resource'),
      subresource: field(r, 'subresource'),
      name: field(r, 'name'),
      resourceRequest: true,
      path: '',
      ...fieldRequirementsOf(r.fieldSelector),
    }
  }
  const n = isObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {}
  return {
    user,
    verb: field(n, 'verb'),
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
    resourceRequest: false,
    path: field(n, 'path'),
  }
}

const LABEL_OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' }

/** What parsing a selector gave the authorizer: how many requirements, and whether some could not be read. */
type Parsed = { requirements: number; failed: boolean }

function labelSelectorOf(sel: Json): Parsed {
  const reqs = Array.isArray(sel.requirements) ? sel.requirements : []
  if (reqs.length === 0) {
    const raw = field(sel, 'rawSelector')
    if (raw === '') return { requirements: 0, failed: false }
    const parsed = parseLabelRequirements(raw)
    return parsed.ok ? { requirements: parsed.requirements.length, failed: false } : { requirements: 0, failed: true }
  }
  let requirements = 0
  let failed = false
  for (const r of reqs) {
    const op = LABEL_OPERATORS[field(r, 'operator')]
    const made = op ? newLabelRequirement(field(r, 'key'), op, isObject(r) ? stringsOf(r.values) : []) : null
    if (made?.ok) requirements++
    else failed = true
  }
  return { requirements, failed }
}

function fieldSelectorOf(sel: Json): Parsed {
  const reqs = Array.isArray(sel.requirements) ? sel.requirements : []
  if (reqs.length === 0) {
    const raw = field(sel, 'rawSelector')
    return { requirements: 0, failed: raw !== '' && !parseFieldSelector(raw).ok }
  }
  let requirements = 0
  let failed = false
  for (const r of reqs) {
    // Only In and NotIn with exactly one value are understood (as = and !=); anything else is dropped as an error.
    const values = isObject(r) ? stringsOf(r.values) : []
    if (IN.has(field(r, 'operator')) && values.length === 1) requirements++
    else failed = true
  }
  return { requirements, failed }
}

/**
 * ResourceAttributesFrom's field selector, for the authorizers that read one (the Node authorizer): the raw selector
 * parsed, or the requirements an In or NotIn of one value expresses (as = and !=); what cannot be read is left out.
 */
function fieldRequirementsOf(sel: unknown): Pick<Attributes, 'fieldSelector'> {
  if (!isObject(sel)) return {}
  const reqs = Array.isArray(sel.requirements) ? sel.requirements : []
  if (reqs.length === 0) {
    const parsed = parseFieldSelector(field(sel, 'rawSelector'))
    return parsed.ok && parsed.selector.requirements.length > 0 ? { fieldSelector: parsed.selector.requirements } : {}
  }
  const fieldSelector = reqs.flatMap((r) => {
    const values = isObject(r) ? stringsOf(r.values) : []
    const op = field(r, 'operator')
    if (!IN.has(op) || values.length !== 1) return []
    return [{ field: field(r, 'key'), operator: op === 'In' ? ('=' as const) : ('!=' as const), value: values[0]! }]
  })
  return fieldSelector.length > 0 ? { fieldSelector } : {}
}

/** BuildEvaluationError's selector notes (RBAC itself never errs), joined with "; ". */
export function evaluationError(spec: Json): string {
  const r = spec.resourceAttributes
  if (!isObject(r)) return ''
  const notes: string[] = []
  const note = (name: string, p: Parsed) => {
    if (p.failed)
      notes.push(`spec.resourceAttributes.${name} ${p.requirements > 0 ? 'partially ' : ''}ignored due to parse error`)
  }
  if (isObject(r.fieldSelector)) note('fieldSelector', fieldSelectorOf(r.fieldSelector))
  if (isObject(r.labelSelector)) note('labelSelector', labelSelectorOf(r.labelSelector))
  return notes.join('; ')
}
