// ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go, release-1.33) over the internal view of the spec: group, scope,
// names (crd-names-validation.ts), versions (exactly one storage version; each: crd-version-validation.ts), schemas,
// subresources, printer columns, selectable fields, conversion, stored versions, API approval of protected groups.
// kubeflare has no conversion webhooks: a Webhook strategy is refused here with a 422 that says so.
import { fieldError, type FieldError, FieldPath } from '../field-errors'
import { isDNS1035Label, isDNS1123Subdomain } from '../validation/names'
import { deepEqual } from '../deep-equal'
import { APPROVAL_ANNOTATION, approvalOf, isProtectedGroup } from './crd-approval'
import { type InternalSpec, internalSpec, schemaOf, subresourcesOf } from './crd-internal'
import type { Crd, JSONSchemaProps } from './json-schema'
import { requiredNames, validateNames } from './crd-names-validation'
import { validateColumn, validateSubresources, validateVersion } from './crd-version-validation'
import { type RuleChecker, schemaHasDefaults, validateSchema } from './schema-validation'
import { validateSelectableFields } from './selectable-fields-validation'

/** What validation needs besides the CRD: the checkers of defaults and CEL rules (src/registry/custom/). */
export interface CrdCheckers {
  checkDefaults?: (schema: JSONSchemaProps, path: FieldPath) => FieldError[]
  checkRules?: RuleChecker
}

const spec = new FieldPath('spec')

/** metadata.name of a CRD must be <plural>.<group> (the name rule kube adds to ValidateObjectMeta). */
function validateCrdName(crd: Crd): FieldError[] {
  const name = crd.metadata.name ?? ''
  if (name === `${crd.spec.names?.plural ?? ''}.${crd.spec.group ?? ''}`) return []
  return [fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group')]
}

export function validateCrd(crd: Crd, checkers: CrdCheckers): FieldError[] {
  const s = internalSpec(crd.spec)
  return [
    ...validateCrdName(crd),
    ...validateSpec(s, checkers),
    ...validateStatus(crd),
    ...validateStoredVersions(crd),
    ...validateApproval(crd, null),
    ...validatePreserveUnknownFields(crd, null),
  ]
}

export function validateCrdUpdate(crd: Crd, old: Crd, checkers: CrdCheckers): FieldError[] {
  const s = internalSpec(crd.spec)
  const o = internalSpec(old.spec)
  // A version whose schema the update leaves as it was keeps rules over kube's per-expression cost limit
  // (findVersionsWithUnchangedSchemas): they were accepted before the limit or its estimates changed.
  const unchanged = new Set(
    s.versions.filter((v) => deepEqual(schemaOf(s, v.name), schemaOf(o, v.name))).map((v) => v.name),
  )
  const errs = validateSpec(s, checkers, unchanged)
  if (isConditionTrue(old, 'Established')) {
    if (s.scope !== o.scope) errs.push(fieldError.invalid('spec.scope', s.scope, 'field is immutable'))
    if (s.names.kind !== o.names.kind)
      errs.push(fieldError.invalid('spec.names.kind', s.names.kind, 'field is immutable'))
  }
  if (s.group !== o.group) errs.push(fieldError.invalid('spec.group', s.group, 'field is immutable'))
  if (s.names.plural !== o.names.plural)
    errs.push(fieldError.invalid('spec.names.plural', s.names.plural, 'field is immutable'))
  return [
    ...errs,
    ...validateStatus(crd),
    ...validateStoredVersions(crd),
    ...validateApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ]
}

/** ValidateUpdateCustomResourceDefinitionStatus (metadata is the store's). */
export const validateCrdStatusUpdate = (crd: Crd): FieldError[] => validateStatus(crd)

const isConditionTrue = (crd: Crd, type: string) =>
  crd.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false

function validateSpec(
  s: InternalSpec,
  checkers: CrdCheckers,
  unchanged: ReadonlySet<string> = new Set(),
): FieldError[] {
  const errs: FieldError[] = []
  if (!s.group) errs.push(fieldError.required('spec.group'))
  else {
    const bad = isDNS1123Subdomain(s.group)
    if (bad.length > 0) errs.push(fieldError.invalid('spec.group', s.group, bad.join(',')))
    else if (s.group.split('.').length < 2)
      errs.push(fieldError.invalid('spec.group', s.group, 'should be a domain with at least one dot'))
  }
  errs.push(...enumString('spec.scope', s.scope, ['Cluster', 'Namespaced']))
  if (!s.validation?.openAPIV3Schema) {
    s.versions.forEach((v, i) => {
      if (!v.schema?.openAPIV3Schema)
        errs.push(
          fieldError.required(
            spec.child('versions').index(i).child('schema').child('openAPIV3Schema').path,
            'schemas are required',
          ),
        )
    })
  }
  const anySchema = [s.validation?.openAPIV3Schema, ...s.versions.map((v) => v.schema?.openAPIV3Schema)]
  if (anySchema.some(schemaHasDefaults) && s.preserveUnknownFields === true) {
    errs.push(
      fieldError.invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'),
    )
  }
  let storage = 0
  const seen = new Set<string>()
  let unique = true
  s.versions.forEach((v, i) => {
    const at = spec.child('versions').index(i)
    if (v.storage) storage++
    if (seen.has(v.name)) unique = false
    seen.add(v.name)
    const bad = isDNS1035Label(v.name ?? '')
    if (bad.length > 0) errs.push(fieldError.invalid(at.child('name').path, v.name ?? '', bad.join(',')))
    const status = subresourcesOf(s, v.name)?.status !== undefined
    errs.push(...validateVersion(s, v, at, status, { ...checkers, suppressPerExpressionCost: unchanged.has(v.name) }))
  })
  if (s.validation && s.versions.some((v) => v.schema !== undefined))
    errs.push(fieldError.forbidden('spec.validation', 'top-level and per-version schemas are mutually exclusive'))
  if (s.subresources && s.versions.some((v) => v.subresources !== undefined))
    errs.push(
      fieldError.forbidden('spec.subresources', 'top-level and per-version subresources are mutually exclusive'),
    )
  if (
    (s.additionalPrinterColumns?.length ?? 0) > 0 &&
    s.versions.some((v) => (v.additionalPrinterColumns?.length ?? 0) > 0)
  ) {
    errs.push(
      fieldError.forbidden(
        'spec.additionalPrinterColumns',
        'top-level and per-version additionalPrinterColumns are mutually exclusive',
      ),
    )
  }
  if (!unique) errs.push(fieldError.invalid('spec.versions', versionsValue(s), 'must contain unique version names'))
  if (storage !== 1)
    errs.push(
      fieldError.invalid('spec.versions', versionsValue(s), 'must have exactly one version marked as storage version'),
    )
  errs.push(...requiredNames(s.names))
  errs.push(...validateNames(s.names, spec.child('names')))
  const statusAnywhere =
    s.subresources?.status !== undefined || s.versions.some((v) => v.subresources?.status !== undefined)
  errs.push(
    ...validateSchema(s.validation?.openAPIV3Schema, spec.child('validation'), {
      statusEnabled: statusAnywhere,
      ...checkers,
      suppressPerExpressionCost: unchanged.has(s.version),
    }),
  )
  errs.push(...validateSubresources(s.subresources, spec.child('subresources')))
  s.additionalPrinterColumns?.forEach((c, i) =>
    errs.push(...validateColumn(c, spec.child('additionalPrinterColumns').index(i))),
  )
  if ((s.selectableFields?.length ?? 0) > 0) {
    if (!s.validation) {
      errs.push(
        fieldError.invalid(
          'spec.selectableFields',
          '',
          'selectableFields may only be set when validations.schema is included',
        ),
      )
    } else errs.push(...validateSelectableFields(s.selectableFields!, s.validation.openAPIV3Schema, spec))
  }
  errs.push(...validateConversion(s.conversion, spec.child('conversion')))
  return errs
}

/** The spec.versions value kube quotes in its errors (Go prints the internal structs; we print the JSON). */
const versionsValue = (s: InternalSpec) => JSON.stringify(s.versions)

function enumString(field: string, value: string | undefined, accepted: string[]): FieldError[] {
  if (!value) return [fieldError.required(field)]
  return accepted.includes(value) ? [] : [fieldError.notSupported(field, value, accepted)]
}

function validateConversion(c: InternalSpec['conversion'], at: FieldPath): FieldError[] {
  if (!c) return []
  const errs = enumString(at.child('strategy').path, c.strategy, ['None', 'Webhook'])
  if (c.strategy === 'Webhook') {
    const cc = c.webhook?.clientConfig
    if (!cc)
      errs.push(fieldError.required(at.child('webhookClientConfig').path, 'required when strategy is set to Webhook'))
    else if ((cc.url === undefined) === (cc.service === undefined))
      errs.push(fieldError.required(at.child('webhookClientConfig').path, 'exactly one of url or service is required'))
    const versions = c.webhook?.conversionReviewVersions ?? []
    if (versions.length === 0) errs.push(fieldError.required(at.child('conversionReviewVersions').path))
    else if (!versions.some((v) => v === 'v1' || v === 'v1beta1'))
      errs.push(
        fieldError.invalid(
          at.child('conversionReviewVersions').path,
          versions,
          'must include at least one of v1, v1beta1',
        ),
      )
    // No webhook can be called from here yet: refused rather than accepted and then failing every read.
    errs.push(
      fieldError.forbidden(
        at.child('strategy').path,
        'conversion webhooks are not supported by this server: use strategy None (objects are served in every version with apiVersion rewritten)',
      ),
    )
  } else if (c.webhook?.clientConfig) {
    errs.push(
      fieldError.forbidden(
        at.child('webhookClientConfig').path,
        'should not be set when strategy is not set to Webhook',
      ),
    )
  } else if ((c.webhook?.conversionReviewVersions?.length ?? 0) > 0) {
    errs.push(
      fieldError.forbidden(
        at.child('conversionReviewVersions').path,
        'should not be set when strategy is not set to Webhook',
      ),
    )
  }
  return errs
}

function validateStatus(crd: Crd): FieldError[] {
  return validateNames(crd.status?.acceptedNames, new FieldPath('status').child('acceptedNames'))
}

function validateStoredVersions(crd: Crd): FieldError[] {
  const stored = crd.status?.storedVersions ?? []
  const at = new FieldPath('status').child('storedVersions')
  if (stored.length === 0) return [fieldError.invalid(at.path, stored, 'must have at least one stored version')]
  const errs: FieldError[] = []
  const remaining = new Map(stored.map((v, i) => [v, i]))
  for (const v of crd.spec.versions ?? []) {
    const has = remaining.has(v.name)
    if (v.storage && !has) errs.push(fieldError.invalid(at.path, stored, `must have the storage version ${v.name}`))
    if (has) remaining.delete(v.name)
  }
  for (const [v, i] of remaining) {
    errs.push(
      fieldError.invalid(
        at.index(i).path,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    )
  }
  return errs
}

function validateApproval(crd: Crd, old: Crd | null): FieldError[] {
  if (!isProtectedGroup(crd.spec.group ?? '')) return []
  const [state, reason] = approvalOf(crd.metadata.annotations)
  if (old && approvalOf(old.metadata.annotations)[0] === state) return []
  const field = `metadata.annotations[${APPROVAL_ANNOTATION}]`
  if (state === 'missing') return [fieldError.required(field, reason)]
  if (state === 'invalid')
    return [fieldError.invalid(field, crd.metadata.annotations?.[APPROVAL_ANNOTATION] ?? '', reason)]
  return []
}

function validatePreserveUnknownFields(crd: Crd, old: Crd | null): FieldError[] {
  if (old?.spec.preserveUnknownFields) return []
  if (!crd.spec.preserveUnknownFields) return []
  return [
    fieldError.invalid(
      'spec.preserveUnknownFields',
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ),
  ]
}

/** Whether two CRD specs differ (a spec change bumps metadata.generation). */
export const specChanged = (a: Crd, b: Crd) => !deepEqual(a.spec, b.spec)
