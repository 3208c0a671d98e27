// A CRD version's OpenAPI v3 schema checked as kube checks it (apiextensions validation.go:
// validateCustomResourceDefinitionValidation and ValidateCustomResourceDefinitionOpenAPISchema): what the root may
// hold with /status, the fields OpenAPI v3 has that CRDs refuse, list and map extensions (list-map-validation.ts),
// rules' shapes (rule-shape-validation.ts), then the structural invariants, the defaults and the CEL rules.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import {
  additionalPropertiesOf,
  itemsArray,
  itemsSchema,
  type JSONSchemaProps,
  schemaHas,
  sortedKeys,
} from './json-schema'
import { listAndMapTypes, mapListKeysMapSet } from './list-map-validation'
import { ruleShapes } from './rule-shape-validation'
import { NotStructural, newStructural, type Structural } from './structural'
import { validateStructural } from './structural-validation'

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string']
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion'])
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

export interface SchemaCheckOptions {
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

/** Whether any schema of a CRD sets a default (specHasDefaults). */
export const schemaHasDefaults = (s: JSONSchemaProps | undefined) => schemaHas(s, (x) => x.default !== undefined)
