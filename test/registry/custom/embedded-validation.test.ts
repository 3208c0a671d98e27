// Embedded resources (x-kubernetes-embedded-resource) as kube's objectmeta validation checks them.
import { describe, expect, it } from 'vitest'
import { newStructural } from '../../../src/registry/crd/structural'
import { renderFieldError } from '../../../src/registry/field-errors'
import { validateEmbedded } from '../../../src/registry/custom/embedded-validation'

const schema = newStructural({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
  },
})
const check = (template: unknown) => validateEmbedded(schema, { spec: { template } }).map(renderFieldError)

describe('embedded resources', () => {
  it('need apiVersion and kind', () => {
    expect(check({ metadata: {} })).toEqual([
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
    ])
  })
  it('check their forms and their metadata', () => {
    expect(check({ apiVersion: 'a/b/c', kind: 'Bad_Kind', metadata: { name: 'x/y', labels: { 'a b': 'c' } } })).toEqual(
      [
        'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
        `spec.template.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        `spec.template.metadata.name: Invalid value: "x/y": may not contain '/'`,
        `spec.template.metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    )
  })
  it('a valid one passes, without a name', () => {
    expect(check({ apiVersion: 'v1', kind: 'Pod', metadata: { labels: { app: 'x' } } })).toEqual([])
  })
})
