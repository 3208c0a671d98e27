// CRD-time cost estimates of x-kubernetes-validations as kube makes them: a rule's cost times how often its node can
// occur (the product of the maxItems/maxProperties above it, or, under an unbounded list or map, how many of the
// node's smallest serialization fit in a request), a messageExpression's own estimate, and kube's messages.
import { describe, expect, it } from 'vitest'
import { checkRules } from '../../../src/registry/custom/cel/cel-rules'
import type { JSONSchemaProps } from '../../../src/registry/crd/json-schema'
import { newStructural } from '../../../src/registry/crd/structural'
import { FieldPath, renderFieldError } from '../../../src/registry/field-errors'

const V = 'spec.validation.openAPIV3Schema'
const HINT =
  '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)'
const check = (s: JSONSchemaProps) => checkRules(newStructural(s), new FieldPath(V)).map(renderFieldError)

/** A root schema whose spec.items is a list (maxItems as given) of objects carrying `rules`. */
function listOf(rules: object[], maxItems?: number, item: JSONSchemaProps = {}): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          items: {
            type: 'array',
            ...(maxItems === undefined ? {} : { maxItems }),
            items: {
              type: 'object',
              properties: { name: { type: 'string', maxLength: 64 }, n: { type: 'integer' } },
              'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'],
              ...item,
            },
          },
        },
      },
    },
  }
}
const at = `${V}.properties[spec].properties[items].items.x-kubernetes-validations[0]`

describe('estimated cost times cardinality', () => {
  it.each([
    ['bounded by maxItems', 100, {}, []],
    [
      'under an unbounded list: 3 MiB / 3 bytes ({}) occurrences',
      undefined,
      {},
      [`${at}.rule: Forbidden: estimated rule cost exceeds budget by factor of 2.9x ${HINT}`],
    ],
    // A required property raises the smallest serialization ({"name":""}: 2 + 4 + 2 + 4 = 12), so fewer fit.
    ['under an unbounded list of larger items', undefined, { required: ['name'] }, []],
  ])('%s', (_name, maxItems, item, want) => {
    expect(check(listOf([{ rule: "self.name.startsWith('a')" }], maxItems, item as JSONSchemaProps))).toEqual(want)
  })

  it('a cheap rule under an unbounded list passes', () => {
    expect(check(listOf([{ rule: 'self.n > 0' }]))).toEqual([])
  })

  it('a messageExpression has its own estimate and message', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { names: { type: 'array', items: { type: 'string' } } },
          'x-kubernetes-validations': [
            { rule: 'true', messageExpression: "self.names.filter(n, n.contains('x')).join(',')" },
          ],
        },
      },
    }
    const errs = check(s)
    expect(errs[0]).toBe(
      `${V}.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x ${HINT}`,
    )
    expect(errs.at(-1)).toMatch(
      /^spec\.validation\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total/,
    )
  })
})
