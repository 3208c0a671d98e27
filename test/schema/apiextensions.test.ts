// The apiextensions.k8s.io/v1 schemas decode a CRD as kube's Go types do: every part is a Go struct of its own name,
// so type errors and unknown fields name it as encoding/json does (`Go struct field CustomResourceDefinitionNames...`).
import { describe, expect, it } from 'vitest'
import * as apiextensions from '../../src/schema/apiextensions'
import { decodeObject } from '../../src/registry/decode'
import type { StatusError } from '../../src/registry/status'

const target = {
  schema: apiextensions.CustomResourceDefinition,
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
}

const decodeError = (doc: unknown) => {
  try {
    decodeObject(target, { format: 'json', text: JSON.stringify(doc) }, 'Strict')
    return ''
  } catch (e) {
    return (e as StatusError).status.message
  }
}

const crd = (spec: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', kind: 'CronTab' },
    versions: [],
    ...spec,
  },
})

const prefix =
  'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal'

describe('apiextensions.k8s.io/v1 schemas', () => {
  it.each([
    [
      'CustomResourceDefinitionNames',
      { names: { plural: 1 } },
      'number into Go struct field CustomResourceDefinitionNames.spec.names.plural of type string',
    ],
    [
      'CustomResourceDefinitionVersion',
      { versions: [{ name: 'v1', served: 'yes' }] },
      'string into Go struct field CustomResourceDefinitionVersion.spec.versions.served of type bool',
    ],
    [
      'CustomResourceValidation',
      { versions: [{ name: 'v1', schema: { openAPIV3Schema: 'x' } }] },
      'string into Go struct field CustomResourceValidation.spec.versions.schema.openAPIV3Schema of type v1.JSONSchemaProps',
    ],
    [
      'JSONSchemaProps',
      { versions: [{ name: 'v1', schema: { openAPIV3Schema: { properties: { a: { maxLength: 'x' } } } } }] },
      'string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength of type int64',
    ],
    [
      'CustomResourceSubresources',
      { versions: [{ name: 'v1', subresources: { scale: 1 } }] },
      'number into Go struct field CustomResourceSubresources.spec.versions.subresources.scale of type v1.CustomResourceSubresourceScale',
    ],
    [
      'CustomResourceSubresourceStatus',
      { versions: [{ name: 'v1', subresources: { status: [] } }] },
      'array into Go struct field CustomResourceSubresources.spec.versions.subresources.status of type v1.CustomResourceSubresourceStatus',
    ],
    [
      'CustomResourceColumnDefinition',
      { versions: [{ name: 'v1', additionalPrinterColumns: [{ priority: 'high' }] }] },
      'string into Go struct field CustomResourceColumnDefinition.spec.versions.additionalPrinterColumns.priority of type int32',
    ],
    [
      'SelectableField',
      { versions: [{ name: 'v1', selectableFields: [{ jsonPath: 3 }] }] },
      'number into Go struct field SelectableField.spec.versions.selectableFields.jsonPath of type string',
    ],
    [
      'CustomResourceConversion',
      { conversion: { strategy: 1 } },
      'number into Go struct field CustomResourceConversion.spec.conversion.strategy of type string',
    ],
    [
      'WebhookConversion',
      { conversion: { webhook: { conversionReviewVersions: 'v1' } } },
      'string into Go struct field WebhookConversion.spec.conversion.webhook.conversionReviewVersions of type []string',
    ],
    [
      'WebhookClientConfig',
      { conversion: { webhook: { clientConfig: { url: 1 } } } },
      'number into Go struct field WebhookClientConfig.spec.conversion.webhook.clientConfig.url of type string',
    ],
    [
      'ServiceReference',
      { conversion: { webhook: { clientConfig: { service: { port: 'x' } } } } },
      'string into Go struct field ServiceReference.spec.conversion.webhook.clientConfig.service.port of type int32',
    ],
    [
      'ExternalDocumentation',
      { versions: [{ name: 'v1', schema: { openAPIV3Schema: { externalDocs: { url: 1 } } } }] },
      'number into Go struct field ExternalDocumentation.spec.versions.schema.openAPIV3Schema.externalDocs.url of type string',
    ],
    [
      'CustomResourceDefinitionSpec',
      { scope: 1 },
      'number into Go struct field CustomResourceDefinitionSpec.spec.scope of type string',
    ],
  ])('%s', (_type, spec, message) => {
    expect(decodeError(crd(spec))).toBe(`${prefix} ${message}`)
  })

  it('reports unknown fields inside property schemas (strict decoding)', () => {
    const doc = crd({ versions: [{ name: 'v1', schema: { openAPIV3Schema: { properties: { a: { typo: 1 } } } } }] })
    expect(decodeError(doc)).toContain('unknown field "spec.versions[0].schema.openAPIV3Schema.properties.a.typo"')
  })

  it('decodes status conditions and accepted names', () => {
    const status = { conditions: [{ type: 'Established', status: 1 }], acceptedNames: { plural: 'a', kind: 'A' } }
    expect(decodeError({ ...crd({}), status })).toBe(
      `${prefix} number into Go struct field CustomResourceDefinitionCondition.status.conditions.status of type string`,
    )
    void apiextensions.CustomResourceDefinitionStatus
  })
})
