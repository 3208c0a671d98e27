// kube-openapi's schema validation of custom resources, table-driven from kube's behaviour: the field errors and
// messages apiextensions reports (kubeOpenAPIResultToFieldErrors) for each kind of schema constraint.
import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/registry/crd/json-schema'
import { renderFieldError } from '../../../src/registry/field-errors'
import { schemaErrors } from '../../../src/registry/custom/schema-validator'

const root = (props: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: props, ...extra } },
})

const cases: [string, JSONSchemaProps, unknown, string[]][] = [
  [
    'type integer',
    root({ n: { type: 'integer' } }),
    { n: 'x' },
    ['spec.n: Invalid value: "string": spec.n in body must be of type integer: "string"'],
  ],
  [
    'type integer takes 2.0-like values but not 1.5',
    root({ n: { type: 'integer' } }),
    { n: 1.5 },
    ['spec.n: Invalid value: "number": spec.n in body must be of type integer: "number"'],
  ],
  ['number takes integers', root({ n: { type: 'number' } }), { n: 3 }, []],
  [
    'type object',
    root({ o: { type: 'object' } }),
    { o: [] },
    ['spec.o: Invalid value: "array": spec.o in body must be of type object: "array"'],
  ],
  [
    'type boolean',
    root({ b: { type: 'boolean' } }),
    { b: 'true' },
    ['spec.b: Invalid value: "string": spec.b in body must be of type boolean: "string"'],
  ],
  [
    'null without nullable',
    root({ s: { type: 'string' } }),
    { s: null },
    ['spec.s: Invalid value: "null": spec.s in body must be of type string: "null"'],
  ],
  ['null with nullable', root({ s: { type: 'string', nullable: true } }), { s: null }, []],
  ['required', root({ a: { type: 'string' } }, { required: ['a', 'b'] }), { a: 'x' }, ['spec.b: Required value']],
  [
    'enum',
    root({ e: { type: 'string', enum: ['a', 'b'] } }),
    { e: 'c' },
    ['spec.e: Unsupported value: "c": supported values: "a", "b"'],
  ],
  [
    'enum of numbers',
    root({ e: { type: 'integer', enum: [1, 2] } }),
    { e: 3 },
    ['spec.e: Unsupported value: 3: supported values: "1", "2"'],
  ],
  [
    'pattern',
    root({ p: { type: 'string', pattern: '^a+$' } }),
    { p: 'b' },
    [`spec.p: Invalid value: "b": spec.p in body should match '^a+$'`],
  ],
  [
    'maxLength counts characters',
    root({ s: { type: 'string', maxLength: 2 } }),
    { s: 'héé' },
    ['spec.s: Too long: may not be more than 2 bytes'],
  ],
  [
    'minLength',
    root({ s: { type: 'string', minLength: 2 } }),
    { s: 'a' },
    ['spec.s: Invalid value: "a": spec.s in body should be at least 2 chars long'],
  ],
  [
    'maximum',
    root({ n: { type: 'integer', maximum: 10 } }),
    { n: 11 },
    ['spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10'],
  ],
  [
    'exclusiveMaximum',
    root({ n: { type: 'integer', maximum: 10, exclusiveMaximum: true } }),
    { n: 10 },
    ['spec.n: Invalid value: 10: spec.n in body should be less than 10'],
  ],
  [
    'minimum of a number',
    root({ n: { type: 'number', minimum: 0.5 } }),
    { n: 0.25 },
    ['spec.n: Invalid value: 0.25: spec.n in body should be greater than or equal to 0.5'],
  ],
  [
    'exclusiveMinimum',
    root({ n: { type: 'integer', minimum: 0, exclusiveMinimum: true } }),
    { n: 0 },
    ['spec.n: Invalid value: 0: spec.n in body should be greater than 0'],
  ],
  [
    'multipleOf',
    root({ n: { type: 'integer', multipleOf: 5 } }),
    { n: 7 },
    ['spec.n: Invalid value: 7: spec.n in body should be a multiple of 5'],
  ],
  [
    'maxItems',
    root({ l: { type: 'array', maxItems: 1, items: { type: 'string' } } }),
    { l: ['a', 'b'] },
    ['spec.l: Too many: 2: must have at most 1 items'],
  ],
  [
    'minItems',
    root({ l: { type: 'array', minItems: 2, items: { type: 'string' } } }),
    { l: ['a'] },
    ['spec.l: Invalid value: 1: spec.l in body should have at least 2 items'],
  ],
  [
    'items are checked',
    root({ l: { type: 'array', items: { type: 'integer' } } }),
    { l: [1, 'x'] },
    ['spec.l[1]: Invalid value: "string": spec.l[1] in body must be of type integer: "string"'],
  ],
  [
    'maxProperties',
    root({ m: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } } }),
    { m: { a: 'x', b: 'y' } },
    ['spec.m: Too many: 2: must have at most 1 items'],
  ],
  [
    'minProperties',
    root({ m: { type: 'object', minProperties: 1 } }),
    { m: {} },
    ['spec.m: Invalid value: 0: spec.m in body should have at least 1 properties'],
  ],
  [
    'additionalProperties values',
    root({ m: { type: 'object', additionalProperties: { type: 'integer' } } }),
    { m: { a: 'x' } },
    ['spec.m.a: Invalid value: "string": spec.m.a in body must be of type integer: "string"'],
  ],
  [
    'int-or-string',
    root({ p: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }),
    { p: true },
    [
      'spec.p: Invalid value: "boolean": spec.p in body must be of type integer,string: "boolean"',
      'spec.p: Invalid value: "": "spec.p" must validate at least one schema (anyOf)',
      'spec.p: Invalid value: "boolean": spec.p in body must be of type integer: "boolean"',
    ],
  ],
  [
    'format date-time',
    root({ t: { type: 'string', format: 'date-time' } }),
    { t: 'yesterday' },
    ['spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday"'],
  ],
  [
    'format uuid',
    root({ u: { type: 'string', format: 'uuid' } }),
    { u: 'abc' },
    ['spec.u: Invalid value: "abc": spec.u in body must be of type uuid: "abc"'],
  ],
  [
    'format hostname',
    root({ h: { type: 'string', format: 'hostname' } }),
    { h: 'bad_host!' },
    ['spec.h: Invalid value: "bad_host!": spec.h in body must be of type hostname: "bad_host!"'],
  ],
  [
    'format ipv4',
    root({ i: { type: 'string', format: 'ipv4' } }),
    { i: '1.2.3' },
    ['spec.i: Invalid value: "1.2.3": spec.i in body must be of type ipv4: "1.2.3"'],
  ],
  ['formats kube does not validate are ignored', root({ x: { type: 'string', format: 'int32' } }), { x: 'nope' }, []],
  [
    'valid values pass',
    root({ a: { type: 'string', format: 'date', pattern: '^20' }, n: { type: 'integer', minimum: 1 } }),
    { a: '2024-02-29', n: 1 },
    [],
  ],
]

describe('custom resource schema validation', () => {
  it.each(cases)('%s', (_name, schema, spec, want) => {
    expect(schemaErrors(schema, { spec }).map(renderFieldError)).toEqual(want)
  })
})
