// Structural schemas (k8s.io/apiextensions-apiserver pkg/apiserver/schema: structural.go, convert.go): a CRD
// schema split into its structure (types, properties, items, additionalProperties, kube's extensions) and the value
// validations beneath (formats, bounds, enums, logical junctors). Pruning, defaulting, CEL and SSA read the
// structure; the schema validator reads the original.
import {
  additionalPropertiesOf,
  itemsArray,
  itemsSchema,
  type JSONSchemaProps,
  type ValidationRule,
} from './json-schema'

export interface Generic {
  description?: string
  type?: string
  title?: string
  default?: unknown
  nullable?: boolean
}

interface Extensions {
  preserveUnknownFields?: boolean
  embeddedResource?: boolean
  intOrString?: boolean
  listMapKeys?: string[]
  listType?: string
  mapType?: string
}

export interface ValueValidation {
  format?: string
  maximum?: number
  exclusiveMaximum?: boolean
  minimum?: number
  exclusiveMinimum?: boolean
  maxLength?: number
  minLength?: number
  pattern?: string
  maxItems?: number
  minItems?: number
  uniqueItems?: boolean
  multipleOf?: number
  enum?: unknown[]
  maxProperties?: number
  minProperties?: number
  required?: string[]
  allOf?: NestedValueValidation[]
  oneOf?: NestedValueValidation[]
  anyOf?: NestedValueValidation[]
  not?: NestedValueValidation
}

export interface NestedValueValidation extends ValueValidation {
  validations?: ValidationRule[]
  items?: NestedValueValidation
  properties?: Record<string, NestedValueValidation>
  additionalProperties?: NestedValueValidation
  forbiddenGenerics: Generic
  forbiddenExtensions: Extensions
}

export interface Structural extends Generic, Extensions {
  items?: Structural
  properties?: Record<string, Structural>
  /** A schema, or a bool (true: anything; false: nothing). */
  additionalProperties?: { structural?: Structural; bool: boolean }
  validations?: ValidationRule[]
  valueValidation?: ValueValidation
}

/** NewStructural's refusal, as its error string. */
export class NotStructural extends Error {}

function unsupported(s: JSONSchemaProps) {
  if (s.id) throw new NotStructural("OpenAPIV3Schema 'id' is not supported")
  if (s.$schema) throw new NotStructural("OpenAPIV3Schema 'schema' is not supported")
  if (s.$ref) throw new NotStructural("OpenAPIV3Schema '$ref' is not supported")
  if (Object.keys(s.patternProperties ?? {}).length > 0)
    throw new NotStructural("OpenAPIV3Schema 'patternProperties' is not supported")
  if (Object.keys(s.dependencies ?? {}).length > 0)
    throw new NotStructural("OpenAPIV3Schema 'dependencies' is not supported")
  if (s.additionalItems !== undefined) throw new NotStructural("OpenAPIV3Schema 'additionalItems' is not supported")
  if (Object.keys(s.definitions ?? {}).length > 0)
    throw new NotStructural("OpenAPIV3Schema 'definitions' is not supported")
}

const generics = (s: JSONSchemaProps): Generic => ({
  description: s.description,
  type: s.type,
  title: s.title,
  default: s.default,
  nullable: s.nullable,
})

function extensions(s: JSONSchemaProps): Extensions {
  const x: Extensions = {
    embeddedResource: s['x-kubernetes-embedded-resource'],
    intOrString: s['x-kubernetes-int-or-string'],
    listMapKeys: s['x-kubernetes-list-map-keys'],
    listType: s['x-kubernetes-list-type'],
    mapType: s['x-kubernetes-map-type'],
  }
  const preserve = s['x-kubernetes-preserve-unknown-fields']
  if (preserve === false)
    throw new NotStructural("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
  if (preserve) x.preserveUnknownFields = true
  return x
}

function valueValidation(s: JSONSchemaProps): ValueValidation {
  return {
    format: s.format,
    maximum: s.maximum,
    exclusiveMaximum: s.exclusiveMaximum,
    minimum: s.minimum,
    exclusiveMinimum: s.exclusiveMinimum,
    maxLength: s.maxLength,
    minLength: s.minLength,
    pattern: s.pattern,
    maxItems: s.maxItems,
    minItems: s.minItems,
    uniqueItems: s.uniqueItems,
    multipleOf: s.multipleOf,
    enum: s.enum,
    maxProperties: s.maxProperties,
    minProperties: s.minProperties,
    required: s.required,
    not: s.not ? nested(s.not) : undefined,
    allOf: s.allOf?.map(nested),
    anyOf: s.anyOf?.map(nested),
    oneOf: s.oneOf?.map(nested),
  }
}

function nested(s: JSONSchemaProps): NestedValueValidation {
  unsupported(s)
  const v: NestedValueValidation = {
    ...valueValidation(s),
    validations: s['x-kubernetes-validations'],
    forbiddenGenerics: generics(s),
    forbiddenExtensions: extensions(s),
  }
  if (s.items !== undefined) {
    if (itemsArray(s).length > 0) throw new NotStructural("OpenAPIV3Schema 'items' must be a schema, but is an array")
    const item = itemsSchema(s)
    if (item) v.items = nested(item)
  }
  if (s.properties) v.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, nested(p)]))
  const additional = additionalPropertiesOf(s.additionalProperties)
  if (additional?.schema) v.additionalProperties = nested(additional.schema)
  else if (additional?.allows) v.additionalProperties = { forbiddenGenerics: {}, forbiddenExtensions: {} }
  return v
}

/** NewStructural: throws NotStructural with kube's error text when the schema uses what a structural one cannot. */
export function newStructural(s: JSONSchemaProps): Structural {
  unsupported(s)
  const out: Structural = {
    ...generics(s),
    ...extensions(s),
    validations: s['x-kubernetes-validations'],
    valueValidation: valueValidation(s),
  }
  if (s.items !== undefined) {
    if (itemsArray(s).length > 0) throw new NotStructural("OpenAPIV3Schema 'items' must be a schema, but is an array")
    const item = itemsSchema(s)
    if (item) out.items = newStructural(item)
  }
  if (s.properties && Object.keys(s.properties).length > 0) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, newStructural(p)]))
  }
  const additional = additionalPropertiesOf(s.additionalProperties)
  if (additional) {
    out.additionalProperties = additional.schema
      ? { structural: newStructural(additional.schema), bool: true }
      : { bool: additional.allows }
  }
  return out
}

/** newStructural, or null when the schema is not structural. */
export function tryStructural(s: JSONSchemaProps | undefined): Structural | null {
  if (!s) return null
  try {
    return newStructural(s)
  } catch (e) {
    if (e instanceof NotStructural) return null
    throw e
  }
}
