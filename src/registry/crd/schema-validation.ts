// A CRD version's OpenAPI v3 schema checked as kube checks it (apiextensions validation.go:
// validateCustomResourceDefinitionValidation and ValidateCustomResourceDefinitionOpenAPISchema): what the root may
// hold with /status, the fields OpenAPI v3 has that CRDs refuse, list and map extensions, rules' shapes, then the
// structural invariants, the defaults and the CEL rules.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import {
  additionalPropertiesOf,
  itemsArray,
  itemsSchema,
  type JSONSchemaProps,
  schemaHas,
  sortedKeys,
} from './json-schema'
import { validFieldPath } from './field-path'
import { NotStructural, newStructural, type Structural, tryStructural } from './structural'
import { validateStructural } from './structural-validation'

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string']
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion'])
const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired']
/** What a root schema may hold when /status is enabled (allowedFieldsAtRootSchema, as JSON names). */
const ALLOWED_AT_ROOT = new Set([
  'description',
  'type',
  'format',
  'title',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'required',
  'items',
  'properties',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-validations',
])
const ALLOWED_AT_ROOT_GO =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]'

/** What the walk carries down (specStandardValidatorV3 and the option flags kube threads through). */
interface Walk {
  allowDefaults: boolean
  disallowDefaultsReason?: string
  insideResourceMeta: boolean
}

/**
 * Checks of a schema's CEL rules, run once the schema itself is sound (src/registry/custom/cel/);
 * `suppressPerExpressionCost`: the schema is unchanged by an update, so rules over the per-expression limit stay.
 */
export type RuleChecker = (schema: Structural, path: FieldPath, suppressPerExpressionCost?: boolean) => FieldError[]

interface SchemaCheckOptions {
  /** Whether /status is enabled for the version(s) this schema serves. */
  statusEnabled: boolean
  /** Default values must be pruned and valid (src/registry/custom/defaults-validation.ts). */
  checkDefaults?: (schema: JSONSchemaProps, path: FieldPath) => FieldError[]
  checkRules?: RuleChecker
  /** An update leaves this schema as it was (kube's suppressPerExpressionCost). */
  suppressPerExpressionCost?: boolean
}

/** validateCustomResourceDefinitionValidation for one schema (`path` ends in `.validation` or `.schema`). */
export function validateSchema(
  schema: JSONSchemaProps | undefined,
  path: FieldPath,
  opts: SchemaCheckOptions,
): FieldError[] {
  if (!schema) return []
  const errs: FieldError[] = []
  const root = path.child('openAPIV3Schema')
  if (opts.statusEnabled) {
    for (const [key, value] of Object.entries(schema)) {
      if (isZeroValue(key, value)) continue
      if (key === 'type') {
        if (value !== 'object') {
          errs.push(
            fieldError.invalid(
              path.child('openAPIV3Schema.type').path,
              value,
              'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
            ),
          )
          break
        }
        continue
      }
      if (!ALLOWED_AT_ROOT.has(key)) {
        errs.push(
          fieldError.invalid(
            root.path,
            schema,
            `only ${ALLOWED_AT_ROOT_GO} fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        )
        break
      }
    }
  }
  if (schema.nullable)
    errs.push(fieldError.forbidden(path.child('openAPIV3Schema.nullable').path, 'nullable cannot be true at the root'))
  let structural: Structural | null = null
  const structuralInitErrs: FieldError[] = []
  try {
    const ss = newStructural(schema)
    const invalid = validateStructural(root, ss)
    if (invalid.length > 0) errs.push(...invalid)
    else {
      const defaults = opts.checkDefaults?.(schema, root) ?? []
      if (defaults.length > 0) errs.push(...defaults)
      else structural = ss
    }
  } catch (e) {
    if (!(e instanceof NotStructural)) throw e
    structuralInitErrs.push(fieldError.invalid(root.path, '', e.message))
  }
  const schemaErrs = openAPISchema(schema, root, { allowDefaults: true, insideResourceMeta: false }, true)
  errs.push(...schemaErrs)
  // CEL is compiled only over a sound schema: rules over a broken one give errors no one can act on.
  if (schemaErrs.length === 0 && structural && opts.checkRules)
    errs.push(...opts.checkRules(structural, root, opts.suppressPerExpressionCost))
  if (errs.length === 0 && structuralInitErrs.length > 0) errs.push(...structuralInitErrs)
  return errs
}

/** JSONSchemaProps' plain (non-pointer) bool fields: false is their zero value; pointers are set once present. */
const PLAIN_BOOLS = new Set([
  'exclusiveMaximum',
  'exclusiveMinimum',
  'uniqueItems',
  'nullable',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
])

/** reflect's zero value of a JSONSchemaProps field as JSON gives it. */
const isZeroValue = (key: string, v: unknown) => v === undefined || v === '' || (v === false && PLAIN_BOOLS.has(key))

/** ValidateCustomResourceDefinitionOpenAPISchema, schema errors only (CEL's come from checkRules). */
function openAPISchema(s: JSONSchemaProps | undefined, path: FieldPath, w: Walk, isRoot: boolean): FieldError[] {
  if (!s) return []
  const errs = standard(s, path, w)
  if (s.uniqueItems) {
    errs.push(
      fieldError.forbidden(
        path.child('uniqueItems').path,
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    )
  }
  const additional = additionalPropertiesOf(s.additionalProperties)
  if (additional) {
    if (Object.keys(s.properties ?? {}).length > 0 && (!additional.allows || additional.schema)) {
      errs.push(
        fieldError.forbidden(
          path.child('additionalProperties').path,
          'additionalProperties and properties are mutual exclusive',
        ),
      )
    }
    const sub = w.insideResourceMeta ? forbidDefaults(w, 'inside additionalProperties applying to object metadata') : w
    errs.push(...openAPISchema(additional.schema, path.child('additionalProperties'), sub, false))
  }
  for (const key of sortedKeys(s.properties)) {
    let sub = w
    if ((isRoot || s['x-kubernetes-embedded-resource']) && META_FIELDS.has(key)) {
      sub = { ...sub, insideResourceMeta: true }
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${key}`)
    }
    errs.push(...openAPISchema(s.properties![key], path.child('properties').key(key), sub, false))
  }
  errs.push(...openAPISchema(s.not, path.child('not'), w, false))
  s.allOf?.forEach((x, i) => errs.push(...openAPISchema(x, path.child('allOf').index(i), w, false)))
  s.oneOf?.forEach((x, i) => errs.push(...openAPISchema(x, path.child('oneOf').index(i), w, false)))
  s.anyOf?.forEach((x, i) => errs.push(...openAPISchema(x, path.child('anyOf').index(i), w, false)))
  for (const key of sortedKeys(s.definitions))
    errs.push(...openAPISchema(s.definitions![key], path.child('definitions').key(key), w, false))
  if (s.items !== undefined) {
    errs.push(...openAPISchema(itemsSchema(s), path.child('items'), w, false))
    itemsArray(s).forEach((x, i) => errs.push(...openAPISchema(x, path.child('items').index(i), w, false)))
  }
  for (const key of sortedKeys(s.dependencies)) {
    const dep = s.dependencies![key]
    if (dep && typeof dep === 'object' && !Array.isArray(dep))
      errs.push(...openAPISchema(dep as JSONSchemaProps, path.child('dependencies').key(key), w, false))
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(
      fieldError.invalid(path.child('x-kubernetes-preserve-unknown-fields').path, false, 'must be true or undefined'),
    )
  }
  errs.push(...listAndMapTypes(s, path))
  errs.push(...mapListKeysMapSet(s, path))
  errs.push(...ruleShapes(s, path))
  return errs
}

function forbidDefaults(w: Walk, reason: string): Walk {
  return { ...w, allowDefaults: false, disallowDefaultsReason: reason }
}

/** specStandardValidatorV3.validate: what OpenAPI v3 has and CRD schemas do not. */
function standard(s: JSONSchemaProps, path: FieldPath, w: Walk): FieldError[] {
  const errs: FieldError[] = []
  if (s.type && !OPENAPI_V3_TYPES.includes(s.type))
    errs.push(fieldError.notSupported(path.child('type').path, s.type, OPENAPI_V3_TYPES))
  if (s.default !== undefined && !w.allowDefaults) {
    errs.push(
      fieldError.forbidden(
        path.child('default').path,
        w.disallowDefaultsReason ? `must not be set ${w.disallowDefaultsReason}` : 'must not be set',
      ),
    )
  }
  if (s.id) errs.push(fieldError.forbidden(path.child('id').path, 'id is not supported'))
  if (s.additionalItems !== undefined)
    errs.push(fieldError.forbidden(path.child('additionalItems').path, 'additionalItems is not supported'))
  if (Object.keys(s.patternProperties ?? {}).length > 0)
    errs.push(fieldError.forbidden(path.child('patternProperties').path, 'patternProperties is not supported'))
  if (Object.keys(s.definitions ?? {}).length > 0)
    errs.push(fieldError.forbidden(path.child('definitions').path, 'definitions is not supported'))
  if (s.dependencies !== undefined)
    errs.push(fieldError.forbidden(path.child('dependencies').path, 'dependencies is not supported'))
  if (s.$ref !== undefined) errs.push(fieldError.forbidden(path.child('$ref').path, '$ref is not supported'))
  if (s.type === 'null')
    errs.push(
      fieldError.forbidden(path.child('type').path, 'type cannot be set to null, use nullable as an alternative'),
    )
  if (itemsArray(s).length > 0)
    errs.push(fieldError.forbidden(path.child('items').path, 'items must be a schema object and not an array'))
  if (w.insideResourceMeta && s['x-kubernetes-embedded-resource']) {
    errs.push(
      fieldError.forbidden(
        path.child('x-kubernetes-embedded-resource').path,
        'must not be used inside of resource meta',
      ),
    )
  }
  return errs
}

function listAndMapTypes(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const mapType = s['x-kubernetes-map-type']
  const listType = s['x-kubernetes-list-type']
  const keys = s['x-kubernetes-list-map-keys'] ?? []
  if (mapType !== undefined && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified'
    errs.push(
      s.type
        ? fieldError.invalid(path.child('type').path, s.type, detail)
        : fieldError.required(path.child('type').path, detail),
    )
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular')
    errs.push(fieldError.notSupported(path.child('x-kubernetes-map-type').path, mapType, ['atomic', 'granular']))
  const item = itemsSchema(s)
  if (listType !== undefined && s.type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified'
    errs.push(
      s.type
        ? fieldError.invalid(path.child('type').path, s.type, detail)
        : fieldError.required(path.child('type').path, detail),
    )
  } else if (listType === 'set' && item) {
    if (
      item.type === 'array' &&
      item['x-kubernetes-list-type'] !== undefined &&
      item['x-kubernetes-list-type'] !== 'atomic'
    ) {
      errs.push(
        fieldError.invalid(
          path.child('items').child('x-kubernetes-list-type').path,
          item['x-kubernetes-list-type'],
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      )
    }
    if (item.type === 'object' && item['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(
        fieldError.invalid(
          path.child('items').child('x-kubernetes-map-type').path,
          item['x-kubernetes-list-type'] ?? null,
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      )
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map')
    errs.push(fieldError.notSupported(path.child('x-kubernetes-list-type').path, listType, ['atomic', 'set', 'map']))
  if (keys.length > 0) {
    if (listType === undefined)
      errs.push(
        fieldError.required(
          path.child('x-kubernetes-list-type').path,
          'must be map if x-kubernetes-list-map-keys is non-empty',
        ),
      )
    else if (listType !== 'map')
      errs.push(
        fieldError.invalid(
          path.child('x-kubernetes-list-type').path,
          listType,
          'must be map if x-kubernetes-list-map-keys is non-empty',
        ),
      )
  }
  if (listType === 'map') {
    if (keys.length === 0)
      errs.push(
        fieldError.required(
          path.child('x-kubernetes-list-map-keys').path,
          'must not be empty if x-kubernetes-list-type is map',
        ),
      )
    if (s.items === undefined)
      errs.push(fieldError.required(path.child('items').path, 'must have a schema if x-kubernetes-list-type is map'))
    if (s.items !== undefined && !item)
      errs.push(
        fieldError.invalid(
          path.child('items').path,
          s.items,
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      )
    if (item && item.type !== 'object') {
      errs.push(
        fieldError.invalid(
          path.child('items').child('type').path,
          item.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      )
    }
    if (item && item.type === 'object') {
      const seen = new Set<string>()
      for (const k of keys) {
        const p = item.properties?.[k]
        if (p) {
          if (p.type === 'array' || p.type === 'object') {
            errs.push(
              fieldError.invalid(
                path.child('items').child('properties').key(k).child('type').path,
                item.type,
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            )
          }
        } else {
          errs.push(
            fieldError.invalid(
              path.child('x-kubernetes-list-map-keys').path,
              keys,
              'entries must all be names of item properties',
            ),
          )
        }
        if (seen.has(k))
          errs.push(
            fieldError.invalid(
              path.child('x-kubernetes-list-map-keys').path,
              keys,
              'must not contain duplicate entries',
            ),
          )
        seen.add(k)
      }
    }
  }
  return errs
}

/** validateMapListKeysMapSet: set and map items not nullable, map keys required or defaulted and not nullable. */
function mapListKeysMapSet(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const item = itemsSchema(s)
  const listType = s['x-kubernetes-list-type']
  if (!item || (listType !== 'set' && listType !== 'map')) return []
  const errs: FieldError[] = []
  if (item.nullable)
    errs.push(
      fieldError.forbidden(
        path.child('items').child('nullable').path,
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    )
  if (listType === 'map') {
    const required = new Set(item.required ?? [])
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const p = item.properties?.[k]
      if (!p) continue
      const at = path.child('items').child('properties').key(k)
      if (!required.has(k) && p.default === undefined) {
        errs.push(
          fieldError.required(
            at.child('default').path,
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        )
      }
      if (p.nullable)
        errs.push(
          fieldError.forbidden(
            at.child('nullable').path,
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        )
    }
  }
  return errs
}

const NEWLINES = /[\n\r]+/

/** The shape of each x-kubernetes-validations entry (the rules themselves are compiled by checkRules). */
function ruleShapes(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  ;(s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = path.child('x-kubernetes-validations').index(i)
    const trimmedRule = (rule.rule ?? '').trim()
    const message = rule.message ?? ''
    const trimmedMsg = message.trim()
    const messageExpression = rule.messageExpression ?? ''
    if (trimmedRule.length === 0) errs.push(fieldError.required(at.child('rule').path, 'rule is not specified'))
    else if (message.length > 0 && trimmedMsg.length === 0)
      errs.push(fieldError.invalid(at.child('message').path, message, 'message must be non-empty if specified'))
    else if (NEWLINES.test(trimmedMsg))
      errs.push(fieldError.invalid(at.child('message').path, message, 'message must not contain line breaks'))
    else if (NEWLINES.test(trimmedRule) && trimmedMsg.length === 0)
      errs.push(fieldError.required(at.child('message').path, 'message must be specified if rule contains line breaks'))
    if (messageExpression.length > 0 && messageExpression.trim().length === 0)
      errs.push(
        fieldError.required(at.child('messageExpression').path, 'messageExpression must be non-empty if specified'),
      )
    if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason))
      errs.push(fieldError.notSupported(at.child('reason').path, rule.reason, SUPPORTED_REASONS))
    const fieldPath = rule.fieldPath ?? ''
    if (fieldPath.length > 0 && fieldPath.trim().length === 0)
      errs.push(fieldError.invalid(at.child('fieldPath').path, fieldPath, 'fieldPath must be non-empty if specified'))
    if (NEWLINES.test(fieldPath))
      errs.push(fieldError.invalid(at.child('fieldPath').path, fieldPath, 'fieldPath must not contain line breaks'))
    if (fieldPath.length > 0) {
      const node = tryStructural(s)
      if (node && 'error' in validFieldPath(fieldPath, node))
        errs.push(fieldError.invalid(at.child('fieldPath').path, fieldPath, 'fieldPath must be a valid path'))
    }
  })
  return errs
}

/** Whether any schema of a CRD sets a default (specHasDefaults). */
export const schemaHasDefaults = (s: JSONSchemaProps | undefined) => schemaHas(s, (x) => x.default !== undefined)
