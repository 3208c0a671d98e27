// Pruning and defaulting of custom resources, table-driven from kube's pruning and defaulting algorithms: what is
// removed (and reported), what is kept (metadata, preserve-unknown-fields, embedded resources), which nulls go and
// which defaults apply.
import { describe, expect, it } from 'vitest'
import type { JSONSchemaProps } from '../../../src/registry/crd/json-schema'
import { newStructural } from '../../../src/registry/crd/structural'
import { applyDefaults, prune, pruneNulls } from '../../../src/registry/custom/prune-default'

const s = (schema: JSONSchemaProps) => newStructural(schema)
const spec = (props: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}) =>
  s({ type: 'object', properties: { spec: { type: 'object', properties: props, ...extra } } })

describe('pruning', () => {
  const cases: [string, ReturnType<typeof s>, Record<string, unknown>, Record<string, unknown>, string[]][] = [
    [
      'unknown fields go, reported by path',
      spec({ a: { type: 'string' } }),
      { spec: { a: 'x', b: 1, c: { d: 2 } } },
      { spec: { a: 'x' } },
      ['spec.b', 'spec.c'],
    ],
    [
      'at the root apiVersion, kind and metadata stay, other unknown fields go',
      spec({}),
      { apiVersion: 'v', kind: 'K', metadata: { name: 'n' }, extra: 1 },
      { apiVersion: 'v', kind: 'K', metadata: { name: 'n' } },
      ['extra'],
    ],
    [
      'inside lists, with indices',
      spec({ l: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } } }),
      { spec: { l: [{ a: 'x', z: 1 }, { z: 2 }] } },
      { spec: { l: [{ a: 'x' }, {}] } },
      ['spec.l[0].z', 'spec.l[1].z'],
    ],
    [
      'preserve-unknown-fields keeps them',
      spec({}, { 'x-kubernetes-preserve-unknown-fields': true }),
      { spec: { anything: { goes: 1 } } },
      { spec: { anything: { goes: 1 } } },
      [],
    ],
    [
      'declared fields inside preserved objects are still pruned',
      spec(
        { a: { type: 'object', properties: { b: { type: 'string' } } } },
        { 'x-kubernetes-preserve-unknown-fields': true },
      ),
      { spec: { a: { b: 'x', c: 1 }, other: 2 } },
      { spec: { a: { b: 'x' }, other: 2 } },
      ['spec.a.c'],
    ],
    [
      'additionalProperties values',
      spec({ m: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'integer' } } } } }),
      { spec: { m: { k: { v: 1, w: 2 } } } },
      { spec: { m: { k: { v: 1 } } } },
      ['spec.m.k.w'],
    ],
    [
      'embedded resources keep their metadata',
      spec({ e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } } }),
      { spec: { e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, junk: 1 } } },
      { spec: { e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } } },
      ['spec.e.junk'],
    ],
  ]
  it.each(cases)('%s', (_name, schema, input, want, reported) => {
    const obj = structuredClone(input)
    expect(prune(obj, schema, true)).toEqual(reported)
    expect(obj).toEqual(want)
  })
})

describe('nulls and defaults', () => {
  it('a null the schema does not allow goes unless a default replaces it; nullable nulls stay', () => {
    const schema = spec({
      a: { type: 'string' },
      b: { type: 'string', nullable: true },
      c: { type: 'string', default: 'x' },
    })
    const obj = { spec: { a: null, b: null, c: null } }
    pruneNulls(obj, schema)
    expect(obj).toEqual({ spec: { b: null, c: null } })
    applyDefaults(obj, schema)
    expect(obj).toEqual({ spec: { b: null, c: 'x' } })
  })

  it('absent fields get their default (copied), nested objects are defaulted once present, list items too', () => {
    const schema = spec({
      replicas: { type: 'integer', default: 1 },
      template: { type: 'object', default: {}, properties: { image: { type: 'string', default: 'nginx' } } },
      ports: { type: 'array', items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' } } } },
      labels: {
        type: 'object',
        additionalProperties: { type: 'object', properties: { v: { type: 'string', default: 'd' } } },
      },
    })
    const obj: any = { spec: { ports: [{}, { protocol: 'UDP' }], labels: { a: {} } } }
    applyDefaults(obj, schema)
    expect(obj).toEqual({
      spec: {
        replicas: 1,
        template: { image: 'nginx' },
        ports: [{ protocol: 'TCP' }, { protocol: 'UDP' }],
        labels: { a: { v: 'd' } },
      },
    })
    obj.spec.template.image = 'changed'
    const again: any = { spec: {} }
    applyDefaults(again, schema)
    expect(again.spec.template.image).toBe('nginx')
  })

  it('a field without a default that is absent stays absent', () => {
    const obj: any = { spec: {} }
    applyDefaults(obj, spec({ a: { type: 'string' } }))
    expect(obj).toEqual({ spec: {} })
  })
})
