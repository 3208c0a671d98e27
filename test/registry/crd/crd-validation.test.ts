// ValidateCustomResourceDefinition's cases, written from kube's apiextensions validation.go and validation_test.go
// behaviour: each case changes a valid v1 CRD and expects kube's field errors, paths and wording.
import { describe, expect, it } from 'vitest'
import { validateCrd, validateCrdUpdate } from '../../../src/registry/crd/crd-validation'
import type { Crd, JSONSchemaProps } from '../../../src/registry/crd/json-schema'
import { renderFieldError } from '../../../src/registry/field-errors'
import { checkRules } from '../../../src/registry/custom/cel/cel-rules'

const base = (): Crd => ({
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } },
          },
        },
      },
    ],
    conversion: { strategy: 'None' },
  },
  status: { storedVersions: ['v1'] },
})

/** The schema of the only version, for cases that change it. */
const schema = (crd: Crd) => crd.spec.versions[0]!.schema!.openAPIV3Schema as JSONSchemaProps
const specSchema = (crd: Crd) => schema(crd).properties!.spec as JSONSchemaProps
const V = 'spec.validation.openAPIV3Schema'

const cases: [name: string, change: (crd: Crd) => void, errors: string[]][] = [
  ['valid', () => {}, []],
  [
    'missing group',
    (c) => (c.spec.group = ''),
    [
      'metadata.name: Invalid value: "crontabs.stable.example.com": must be spec.names.plural+"."+spec.group',
      'spec.group: Required value',
    ],
  ],
  [
    'group without a dot',
    (c) => {
      c.spec.group = 'example'
      c.metadata.name = 'crontabs.example'
    },
    ['spec.group: Invalid value: "example": should be a domain with at least one dot'],
  ],
  [
    'bad scope',
    (c) => (c.spec.scope = 'Global'),
    ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
  ],
  [
    'no storage version',
    (c) => (c.spec.versions[0]!.storage = false),
    [
      `spec.versions: Invalid value: ${JSON.stringify(JSON.stringify([{ name: 'v1', served: true, storage: false }]))}: must have exactly one version marked as storage version`,
    ],
  ],
  [
    'bad version name',
    (c) => {
      c.spec.versions[0]!.name = 'V1'
      c.status = { storedVersions: ['V1'] }
    },
    [
      `spec.versions[0].name: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ],
  ],
  [
    'kind equals listKind',
    (c) => (c.spec.names.listKind = 'CronTab'),
    ['spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same'],
  ],
  [
    'bad short name',
    (c) => (c.spec.names.shortNames = ['c_t']),
    [
      `spec.names.shortNames[0]: Invalid value: "c_t": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ],
  ],
  [
    'untyped field',
    (c) => (specSchema(c).properties!.image = {}),
    [`${V}.properties[spec].properties[image].type: Required value: must not be empty for specified object fields`],
  ],
  [
    'array without items',
    (c) => (specSchema(c).properties!.tags = { type: 'array' }),
    [`${V}.properties[spec].properties[tags].items: Required value: must be specified`],
  ],
  [
    'root not object',
    (c) => (schema(c).type = 'string'),
    [`${V}.type: Invalid value: "string": must be object at the root`],
  ],
  [
    'type in anyOf',
    (c) => (specSchema(c).anyOf = [{ type: 'string' }]),
    [`${V}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`],
  ],
  [
    'anyOf property not in the structure',
    (c) => (schema(c).anyOf = [{ properties: { other: {} } }]),
    [`${V}.properties[other]: Required value: because it is defined in ${V}.anyOf[0].properties[other]`],
  ],
  [
    'int-or-string shapes are structural',
    (c) =>
      (specSchema(c).properties!.port = {
        'x-kubernetes-int-or-string': true,
        anyOf: [{ type: 'integer' }, { type: 'string' }],
      }),
    [],
  ],
  [
    'metadata beyond name',
    (c) => (schema(c).properties!.metadata = { type: 'object', properties: { labels: { type: 'object' } } }),
    [
      `${V}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  ],
  [
    'metadata restricting name is allowed',
    (c) =>
      (schema(c).properties!.metadata = { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } }),
    [],
  ],
  [
    'default in metadata',
    (c) => (schema(c).properties!.metadata = { type: 'object', default: {} }),
    [`${V}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
  ],
  [
    'uniqueItems',
    (c) => (specSchema(c).properties!.tags = { type: 'array', items: { type: 'string' }, uniqueItems: true }),
    [
      `${V}.properties[spec].properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ],
  ],
  [
    'properties with additionalProperties',
    (c) => (specSchema(c).additionalProperties = { type: 'string' }),
    [`${V}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`],
  ],
  [
    'bad pattern',
    (c) => (specSchema(c).properties!.name = { type: 'string', pattern: '(abc' }),
    [
      `${V}.properties[spec].properties[name].pattern: Invalid value: "(abc": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(abc\``,
    ],
  ],
  [
    'list-map without keys',
    (c) =>
      (specSchema(c).properties!.ports = { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } }),
    [
      `${V}.properties[spec].properties[ports].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ],
  ],
  [
    'list-map key neither required nor defaulted',
    (c) =>
      (specSchema(c).properties!.ports = {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string' } } },
      }),
    [
      `${V}.properties[spec].properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ],
  ],
  [
    'list type on an object',
    (c) => (specSchema(c)['x-kubernetes-list-type'] = 'set'),
    [`${V}.properties[spec].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`],
  ],
  [
    'unsupported type',
    (c) => (specSchema(c).properties!.when = { type: 'date' }),
    [
      `${V}.properties[spec].properties[when].type: Unsupported value: "date": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    ],
  ],
  [
    'null type',
    (c) => (specSchema(c).properties!.nothing = { type: 'null' }),
    [
      `${V}.properties[spec].properties[nothing].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${V}.properties[spec].properties[nothing].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ],
  ],
  [
    '$ref',
    (c) => (specSchema(c).properties!.ref = { $ref: '#/definitions/x' }),
    [`${V}.properties[spec].properties[ref].$ref: Forbidden: $ref is not supported`],
  ],
  [
    'status root with other fields',
    (c) => {
      c.spec.versions[0]!.subresources = { status: {} }
      schema(c).additionalProperties = false
    },
    [
      `${V}: Invalid value: ${JSON.stringify({ type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } }, additionalProperties: false })}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
      `${V}.additionalProperties: Forbidden: must not be used at the root`,
      `${V}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ],
  ],
  [
    'nullable root',
    (c) => (schema(c).nullable = true),
    [`${V}.nullable: Forbidden: nullable cannot be true at the root`],
  ],
  [
    'printer column type and path',
    (c) => (c.spec.versions[0]!.additionalPrinterColumns = [{ name: 'Age', type: 'time', jsonPath: 'metadata.x' }]),
    [
      'spec.additionalPrinterColumns[0].type: Invalid value: "time": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "metadata.x": must be a simple json path starting with .',
    ],
  ],
  [
    'scale paths',
    (c) =>
      (c.spec.versions[0]!.subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '' } }),
    [
      'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.subresources.scale.statusReplicasPath: Required value',
    ],
  ],
  [
    'selectable field in metadata and of an object',
    (c) => (c.spec.versions[0]!.selectableFields = [{ jsonPath: '.spec' }, { jsonPath: '.spec.nope' }]),
    [
      'spec.selectableFields[0].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[1].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
    ],
  ],
  [
    'rule without text, reason unsupported',
    (c) => (specSchema(c)['x-kubernetes-validations'] = [{ rule: ' ', reason: 'Nope' }]),
    [
      `${V}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${V}.properties[spec].x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ],
  ],
  [
    'protected group without approval',
    (c) => {
      c.spec.group = 'stable.k8s.io'
      c.metadata.name = 'crontabs.stable.k8s.io'
    },
    [
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
  ],
  [
    'deprecation warning on a served version',
    (c) => (c.spec.versions[0]!.deprecationWarning = 'old'),
    ['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions'],
  ],
  [
    'storedVersions missing the storage version',
    (c) => (c.status = { storedVersions: ['v0'] }),
    [
      'status.storedVersions: Invalid value: []string{"v0"}: must have the storage version v1',
      'status.storedVersions[0]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions',
    ],
  ],
]

describe('ValidateCustomResourceDefinition', () => {
  it.each(cases)('%s', (_name, change, errors) => {
    const crd = base()
    change(crd)
    expect(validateCrd(crd, {}).map(renderFieldError)).toEqual(errors)
  })

  it('keeps group and plural, and scope and kind once established, on update', () => {
    const old = base()
    old.status = { storedVersions: ['v1'], conditions: [{ type: 'Established', status: 'True' }] }
    const crd = base()
    crd.spec.scope = 'Cluster'
    crd.spec.names.kind = 'Cron'
    crd.spec.names.listKind = 'CronList'
    crd.spec.names.plural = 'crons'
    crd.metadata.name = 'crons.stable.example.com'
    expect(validateCrdUpdate(crd, old, {}).map(renderFieldError)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Cron": field is immutable',
      'spec.names.plural: Invalid value: "crons": field is immutable',
    ])
  })

  it("an update leaving a version's schema as it was keeps rules over the per-expression cost limit", () => {
    const expensive = (crd: Crd) => {
      const spec = specSchema(crd)
      spec.properties!.names = { type: 'array', items: { type: 'string' } }
      spec['x-kubernetes-validations'] = [{ rule: "self.names.all(n, n.startsWith('a'))" }]
    }
    const perExpression = `${V}.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`
    const old = base()
    expensive(old)
    const renamed = base()
    expensive(renamed)
    renamed.spec.names.shortNames = ['ct']
    const errs = validateCrdUpdate(renamed, old, { checkRules }).map(renderFieldError)
    // The schema's total is still judged; the rule's own limit is not.
    expect(errs).not.toContain(perExpression)
    expect(errs.at(-1)).toMatch(
      /^spec\.validation\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total/,
    )
    const changed = base()
    expensive(changed)
    specSchema(changed).properties!.replicas = { type: 'integer', minimum: 0 }
    expect(validateCrdUpdate(changed, old, { checkRules }).map(renderFieldError)).toContain(perExpression)
  })
})
