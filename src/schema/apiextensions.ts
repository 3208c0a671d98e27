// apiextensions.k8s.io/v1: CustomResourceDefinition and the parts it is made of (names, versions, the OpenAPI v3
// JSONSchemaProps of a version, subresources, printer columns, conversion, status), fields in the order of
// k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1 types.go and types_jsonschema.go (release-1.33).
import { z } from 'zod'
import { int32, int64, ObjectMeta, Time } from './meta'
import { atomic } from './schema-helpers'

const GROUP = 'apiextensions.k8s.io'
const gvk = (kind: string) => ({ 'x-kubernetes-group-version-kind': [{ group: GROUP, version: 'v1', kind }] })

export const ValidationRule = z
  .strictObject({
    rule: z.string().describe('The CEL expression the value (self) must satisfy'),
    message: z.string().optional().describe('What the error says when the rule is false'),
    messageExpression: z.string().optional().describe('A CEL expression whose string result is the error message'),
    reason: z
      .string()
      .optional()
      .describe(
        'The field error type: FieldValueInvalid, FieldValueForbidden, FieldValueRequired, FieldValueDuplicate',
      ),
    fieldPath: z.string().optional().describe('The path, relative to self, the error is reported at'),
    optionalOldSelf: z.boolean().optional().describe('Evaluate the transition rule on create too, oldSelf absent'),
  })
  .describe('A CEL validation rule of a schema node (x-kubernetes-validations)')

export const ExternalDocumentation = z.strictObject({
  description: z.string().optional().describe('What the external documentation is'),
  url: z.string().optional().describe('Where it is'),
})

/**
 * An OpenAPI v3 schema as a CRD carries it (recursive through getters). `items`, `additionalProperties`,
 * `additionalItems` and `dependencies` are Go types with their own UnmarshalJSON (a schema or an array of them, a
 * schema or a bool): raw JSON here, read by src/registry/crd/json-schema.ts. `default`, `example` and `enum` values
 * are any JSON.
 */
type Props = z.ZodOptional<z.ZodRecord<z.ZodString, typeof JSONSchemaProps>>
type Schemas = z.ZodOptional<z.ZodArray<typeof JSONSchemaProps>>

export const JSONSchemaProps = z
  .strictObject({
    id: z.string().optional().describe('Not supported in CRD schemas'),
    $schema: z.string().optional().describe('Not supported in CRD schemas'),
    $ref: z.string().optional().describe('Not supported in CRD schemas'),
    description: z.string().optional().describe('What the value is (kubectl explain prints it)'),
    type: z.string().optional().describe('object, array, string, integer, number or boolean'),
    format: z.string().optional().describe('A format the value must have: int32, date-time, uri, uuid, ...'),
    title: z.string().optional().describe('A short title'),
    default: z.unknown().optional().describe('The value an absent field gets (on write and on read)'),
    maximum: z.number().optional().describe('Largest allowed number'),
    exclusiveMaximum: z.boolean().optional().describe('Whether maximum itself is excluded'),
    minimum: z.number().optional().describe('Smallest allowed number'),
    exclusiveMinimum: z.boolean().optional().describe('Whether minimum itself is excluded'),
    maxLength: int64.optional().describe('Most characters a string may have'),
    minLength: int64.optional().describe('Fewest characters a string may have'),
    pattern: z.string().optional().describe('A regular expression (RE2) a string must match'),
    maxItems: int64.optional().describe('Most items a list may have'),
    minItems: int64.optional().describe('Fewest items a list may have'),
    uniqueItems: z
      .boolean()
      .optional()
      .describe('Not supported in CRD schemas (quadratic): use x-kubernetes-list-type set'),
    multipleOf: z.number().optional().describe('What a number must be a multiple of'),
    enum: z.array(z.unknown()).optional().meta(atomic).describe('The allowed values'),
    maxProperties: int64.optional().describe('Most keys an object may have'),
    minProperties: int64.optional().describe('Fewest keys an object may have'),
    required: z.array(z.string()).optional().meta(atomic).describe('Properties an object must have'),
    items: z.unknown().optional().describe('The schema of list items'),
    get allOf(): Schemas {
      return z.array(JSONSchemaProps).optional().describe('Schemas the value must all satisfy')
    },
    get oneOf(): Schemas {
      return z.array(JSONSchemaProps).optional().describe('Schemas the value must satisfy exactly one of')
    },
    get anyOf(): Schemas {
      return z.array(JSONSchemaProps).optional().describe('Schemas the value must satisfy at least one of')
    },
    get not(): z.ZodOptional<typeof JSONSchemaProps> {
      return JSONSchemaProps.optional().describe('A schema the value must not satisfy')
    },
    get properties(): Props {
      return z.record(z.string(), JSONSchemaProps).optional().describe("The schemas of an object's fields")
    },
    additionalProperties: z.unknown().optional().describe('The schema of the values of a map (or a bool)'),
    get patternProperties(): Props {
      return z.record(z.string(), JSONSchemaProps).optional().describe('Not supported in CRD schemas')
    },
    dependencies: z.record(z.string(), z.unknown()).optional().describe('Not supported in CRD schemas'),
    additionalItems: z.unknown().optional().describe('Not supported in CRD schemas'),
    get definitions(): Props {
      return z.record(z.string(), JSONSchemaProps).optional().describe('Not supported in CRD schemas')
    },
    externalDocs: ExternalDocumentation.optional().describe('Where more documentation is'),
    example: z.unknown().optional().describe('An example value'),
    nullable: z.boolean().optional().describe('Whether null is kept as a value (otherwise it is pruned)'),
    'x-kubernetes-preserve-unknown-fields': z
      .boolean()
      .optional()
      .describe('Keep fields the schema does not declare instead of pruning them'),
    'x-kubernetes-embedded-resource': z
      .boolean()
      .optional()
      .describe('The value is a Kubernetes object (apiVersion, kind, metadata)'),
    'x-kubernetes-int-or-string': z.boolean().optional().describe('The value is an integer or a string'),
    'x-kubernetes-list-map-keys': z
      .array(z.string())
      .optional()
      .meta(atomic)
      .describe('The fields that identify an item of a map list'),
    'x-kubernetes-list-type': z.string().optional().describe('atomic, set or map: how apply merges the list'),
    'x-kubernetes-map-type': z.string().optional().describe('granular or atomic: how apply merges the object'),
    'x-kubernetes-validations': z
      .array(ValidationRule)
      .optional()
      .describe('CEL rules the value must satisfy')
      .meta({
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['rule'],
        'x-kubernetes-patch-merge-key': 'rule',
        'x-kubernetes-patch-strategy': 'merge',
      }),
  })
  .describe('JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).')

export const CustomResourceValidation = z
  .strictObject({
    openAPIV3Schema: JSONSchemaProps.optional().describe(
      'The OpenAPI v3 schema objects of this version are checked with',
    ),
  })
  .describe('The schema of a version')

export const CustomResourceSubresourceStatus = z.strictObject({}).describe('Enables /status')

export const CustomResourceSubresourceScale = z
  .strictObject({
    specReplicasPath: z.string().describe('JSON path (dot notation, under .spec) of the desired replicas'),
    statusReplicasPath: z.string().describe('JSON path (dot notation, under .status) of the observed replicas'),
    labelSelectorPath: z.string().optional().describe('JSON path of the serialized label selector, for HPAs'),
  })
  .describe('Enables /scale: where the replicas and the selector live')

export const CustomResourceSubresources = z
  .strictObject({
    status: CustomResourceSubresourceStatus.optional().describe('Enables /status'),
    scale: CustomResourceSubresourceScale.optional().describe('Enables /scale'),
  })
  .describe('The subresources a version serves')

export const CustomResourceColumnDefinition = z
  .strictObject({
    name: z.string().describe('Human readable column name'),
    type: z.string().describe('integer, number, string, boolean or date'),
    format: z
      .string()
      .optional()
      .describe('An OpenAPI format: int32, int64, float, double, byte, date, date-time, password'),
    description: z.string().optional().describe('What the column shows'),
    priority: int32.optional().describe('0: always shown; higher: only in wide output'),
    jsonPath: z.string().describe('Simple JSON path evaluated against each object'),
  })
  .describe('An additional column of the server-side Table')

export const SelectableField = z
  .strictObject({ jsonPath: z.string().describe('The field a field selector may name (a simple JSON path)') })
  .describe('A field usable in field selectors')

export const CustomResourceDefinitionVersion = z
  .strictObject({
    name: z.string().describe('The version name, as in /apis/<group>/<version>'),
    served: z.boolean().describe('Whether the version is served by the REST API'),
    storage: z.boolean().describe('Whether objects are stored in this version (exactly one is)'),
    deprecated: z.boolean().optional().describe('Served with a Warning header'),
    deprecationWarning: z.string().optional().describe('The Warning text instead of the default one'),
    schema: CustomResourceValidation.optional().describe('The schema of objects in this version'),
    subresources: CustomResourceSubresources.optional().describe('The subresources this version serves'),
    additionalPrinterColumns: z
      .array(CustomResourceColumnDefinition)
      .optional()
      .meta(atomic)
      .describe('Columns of the server-side Table besides NAME and AGE'),
    selectableFields: z.array(SelectableField).optional().meta(atomic).describe('Fields usable in field selectors'),
  })
  .describe('One version of a custom resource')

export const CustomResourceDefinitionNames = z
  .strictObject({
    plural: z.string().describe('The plural name of the resource, as served in URLs'),
    singular: z.string().optional().describe('The singular name (lowercased kind by default)'),
    shortNames: z.array(z.string()).optional().meta(atomic).describe('Short names kubectl accepts (ct)'),
    kind: z.string().describe('The serialized kind (CamelCase, singular)'),
    listKind: z.string().optional().describe('The serialized kind of the list'),
    categories: z.array(z.string()).optional().meta(atomic).describe('Grouped resources (all: kubectl get all)'),
  })
  .describe('The names a custom resource is served under')

export const ServiceReference = z
  .strictObject({
    namespace: z.string().describe('Namespace of the service'),
    name: z.string().describe('Name of the service'),
    path: z.string().optional().describe('URL path requests are sent to'),
    port: int32.optional().describe('Port of the service (443 by default)'),
  })
  .describe('A service a webhook is reached through')

export const WebhookClientConfig = z
  .strictObject({
    url: z.string().optional().describe('The webhook URL'),
    service: ServiceReference.optional().describe('The service the webhook runs behind'),
    caBundle: z.string().optional().describe("PEM CA bundle to check the webhook's certificate with"),
  })
  .describe('How a conversion webhook is called')

export const WebhookConversion = z
  .strictObject({
    clientConfig: WebhookClientConfig.optional().describe('How to call the webhook'),
    conversionReviewVersions: z.array(z.string()).meta(atomic).describe('ConversionReview versions the webhook takes'),
  })
  .describe('A conversion webhook')

export const CustomResourceConversion = z
  .strictObject({
    strategy: z.string().describe('None (only apiVersion is rewritten) or Webhook'),
    webhook: WebhookConversion.optional().describe('The webhook, for strategy Webhook'),
  })
  .describe('How objects are converted between versions')

export const CustomResourceDefinitionSpec = z
  .strictObject({
    group: z.string().describe('The API group of the resources'),
    names: CustomResourceDefinitionNames.describe('The names the resource is served under'),
    scope: z.string().describe('Cluster or Namespaced'),
    versions: z.array(CustomResourceDefinitionVersion).meta(atomic).describe('The versions served'),
    conversion: CustomResourceConversion.optional().describe('How objects are converted between versions'),
    preserveUnknownFields: z.boolean().optional().describe('Deprecated: must be false'),
  })
  .describe('What a CustomResourceDefinition defines')

export const CustomResourceDefinitionCondition = z
  .strictObject({
    type: z.string().describe('Established, NamesAccepted, Terminating, ...'),
    status: z.string().describe('True, False or Unknown'),
    lastTransitionTime: Time.optional().describe('When the status last changed'),
    reason: z.string().optional().describe('Why, in CamelCase'),
    message: z.string().optional().describe('Why, for people'),
  })
  .describe('A condition of a CustomResourceDefinition')

export const CustomResourceDefinitionStatus = z
  .strictObject({
    conditions: z
      .array(CustomResourceDefinitionCondition)
      .nullable()
      .optional()
      .describe('The conditions of the CRD')
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
    acceptedNames: CustomResourceDefinitionNames.optional().describe('The names actually served (conflicts decide)'),
    storedVersions: z
      .array(z.string())
      .nullable()
      .optional()
      .meta(atomic)
      .describe('Every version objects were ever stored in'),
  })
  .describe('What the server made of a CustomResourceDefinition')

export const CustomResourceDefinition = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: CustomResourceDefinition'),
    apiVersion: z.string().optional().describe('Schema version of this object: apiextensions.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: CustomResourceDefinitionSpec.describe('The resource this CRD defines'),
    status: CustomResourceDefinitionStatus.optional().describe('What the server made of it'),
  })
  .describe(
    'CustomResourceDefinition represents a resource that should be exposed on the API server. Its name MUST be in ' +
      'the format <.spec.name>.<.spec.group>.',
  )
  .meta(gvk('CustomResourceDefinition'))
