// The OpenAPI v3 schema of a CRD version as the server reads it (apiextensions.JSONSchemaProps), and the CRD types
// around it. `items` is a schema or an array of schemas, `additionalProperties` a schema or a bool: helpers read
// those unions as kube's custom unmarshalers do.

export interface ValidationRule {
  rule: string
  message?: string
  messageExpression?: string
  reason?: string
  fieldPath?: string
  optionalOldSelf?: boolean
}

export interface JSONSchemaProps {
  id?: string
  $schema?: string
  $ref?: string
  description?: string
  type?: string
  format?: string
  title?: string
  default?: unknown
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
  items?: JSONSchemaProps | JSONSchemaProps[]
  allOf?: JSONSchemaProps[]
  oneOf?: JSONSchemaProps[]
  anyOf?: JSONSchemaProps[]
  not?: JSONSchemaProps
  properties?: Record<string, JSONSchemaProps>
  additionalProperties?: JSONSchemaProps | boolean
  patternProperties?: Record<string, JSONSchemaProps>
  dependencies?: Record<string, unknown>
  additionalItems?: JSONSchemaProps | boolean
  definitions?: Record<string, JSONSchemaProps>
  externalDocs?: { description?: string; url?: string }
  example?: unknown
  nullable?: boolean
  'x-kubernetes-preserve-unknown-fields'?: boolean
  'x-kubernetes-embedded-resource'?: boolean
  'x-kubernetes-int-or-string'?: boolean
  'x-kubernetes-list-map-keys'?: string[]
  'x-kubernetes-list-type'?: string
  'x-kubernetes-map-type'?: string
  'x-kubernetes-validations'?: ValidationRule[]
}

export interface ColumnDefinition {
  name: string
  type: string
  format?: string
  description?: string
  priority?: number
  jsonPath: string
}

interface ScaleSubresource {
  specReplicasPath: string
  statusReplicasPath: string
  labelSelectorPath?: string
}

export interface Subresources {
  status?: Record<string, never>
  scale?: ScaleSubresource
}

export interface CrdVersion {
  name: string
  served: boolean
  storage: boolean
  deprecated?: boolean
  deprecationWarning?: string
  schema?: { openAPIV3Schema?: JSONSchemaProps }
  subresources?: Subresources
  additionalPrinterColumns?: ColumnDefinition[]
  selectableFields?: { jsonPath: string }[]
}

export interface CrdNames {
  plural: string
  singular?: string
  shortNames?: string[]
  kind: string
  listKind?: string
  categories?: string[]
}

export interface CrdCondition {
  type: string
  status: string
  lastTransitionTime?: string
  reason?: string
  message?: string
}

export interface Crd {
  apiVersion?: string
  kind?: string
  metadata: {
    name?: string
    uid?: string
    resourceVersion?: string
    generation?: number
    deletionTimestamp?: string
    finalizers?: string[]
    annotations?: Record<string, string>
    [k: string]: unknown
  }
  spec: {
    group: string
    names: CrdNames
    scope: string
    versions: CrdVersion[]
    conversion?: {
      strategy: string
      webhook?: {
        clientConfig?: {
          url?: string
          service?: { namespace: string; name: string; path?: string; port?: number }
          caBundle?: string
        }
        conversionReviewVersions: string[]
      }
    }
    preserveUnknownFields?: boolean
  }
  status?: {
    conditions?: CrdCondition[] | null
    acceptedNames?: CrdNames
    storedVersions?: string[] | null
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** JSONSchemaPropsOrArray: the single schema `items` holds, if it is one. */
export const itemsSchema = (s: JSONSchemaProps): JSONSchemaProps | undefined =>
  isObject(s.items) ? (s.items as JSONSchemaProps) : undefined

/** JSONSchemaPropsOrArray: the schemas `items` holds when it is an array. */
export const itemsArray = (s: JSONSchemaProps): JSONSchemaProps[] => (Array.isArray(s.items) ? s.items : [])

/** JSONSchemaPropsOrBool: a schema (allows), true (allows, no schema), false (forbids). */
export function additionalPropertiesOf(
  v: JSONSchemaProps['additionalProperties'] | JSONSchemaProps['additionalItems'],
): { allows: boolean; schema?: JSONSchemaProps } | undefined {
  if (v === undefined) return undefined
  if (typeof v === 'boolean') return { allows: v }
  return { allows: true, schema: v }
}

/** SchemaHas: whether `pred` holds for `s` or any schema nested in it. */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!s) return false
  if (pred(s)) return true
  const nested: (JSONSchemaProps | undefined)[] = [
    itemsSchema(s),
    ...itemsArray(s),
    ...(s.allOf ?? []),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    s.not,
    ...Object.values(s.properties ?? {}),
    additionalPropertiesOf(s.additionalProperties)?.schema,
    ...Object.values(s.patternProperties ?? {}),
    additionalPropertiesOf(s.additionalItems)?.schema,
    ...Object.values(s.definitions ?? {}),
  ]
  return nested.some((n) => schemaHas(n, pred))
}

/** Property names in a stable order (Go walks maps in random order; we use byte order, as sorted output does). */
export const sortedKeys = (o: Record<string, unknown> | undefined) => Object.keys(o ?? {}).sort()
