// The zod -> OpenAPI walker on small schemas: types and formats, required, named refs, descriptions, list metadata.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ComponentBuilder, REF_PREFIX } from '../../../src/api/openapi/components'
import { int32, int64, IntOrString, ObjectMeta, Time } from '../../../src/schema/meta'
import { ObjectReference } from '../../../src/schema/object-reference'
import { Quantity } from '../../../src/schema/quantity'
import { Container, PodAffinityTerm, WeightedPodAffinityTerm } from '../../../src/schema/pod'

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1'
const ref = (name: string) => ({ $ref: REF_PREFIX + name })

function build(shape: Record<string, z.ZodType>) {
  const b = new ComponentBuilder()
  const root = b.component('test.Root', z.strictObject(shape).describe('root'))
  return { b, root, schema: b.schemas['test.Root'] as any }
}

describe('ComponentBuilder', () => {
  it('writes scalars with kube formats and marks non-optional fields required', () => {
    const { schema } = build({
      name: z.string().describe('a name'),
      count: int32.optional(),
      big: int64.optional(),
      ratio: z.number().optional(),
      on: z.boolean().optional(),
      mode: z.enum(['A', 'B']).optional().describe('a mode'),
      withDefault: z.string().default('x'),
    })
    expect(schema).toMatchObject({ description: 'root', type: 'object', required: ['name'] })
    expect(schema.properties).toEqual({
      name: { description: 'a name', type: 'string' },
      count: { type: 'integer', format: 'int32' },
      big: { type: 'integer', format: 'int64' },
      ratio: { type: 'number', format: 'double' },
      on: { type: 'boolean' },
      mode: { description: 'a mode', type: 'string', enum: ['A', 'B'] },
      withDefault: { type: 'string' },
    })
  })

  it('refers to named types, wrapping the ref in allOf when the field has its own description', () => {
    const { b, schema } = build({ meta: ObjectMeta.optional().describe('the metadata'), plain: ObjectMeta })
    expect(schema.properties.meta).toEqual({ allOf: [ref(`${META}.ObjectMeta`)], description: 'the metadata' })
    // A field without a description of its own borrows the type's, so explain never prints <no description>.
    expect(schema.properties.plain).toEqual({
      allOf: [ref(`${META}.ObjectMeta`)],
      description: 'Standard object metadata',
    })
    expect(b.schemas[`${META}.ObjectMeta`]).toMatchObject({ description: 'Standard object metadata', type: 'object' })
  })

  it('still names a type used through a .describe() clone', () => {
    const b = new ComponentBuilder()
    b.component('io.k8s.api.core.v1.WeightedPodAffinityTerm', WeightedPodAffinityTerm)
    expect(b.schemas['io.k8s.api.core.v1.WeightedPodAffinityTerm']!.properties).toMatchObject({
      podAffinityTerm: { allOf: [ref('io.k8s.api.core.v1.PodAffinityTerm')], description: 'The term' },
    })
    expect(PodAffinityTerm.description).not.toBe('The term')
    expect(b.schemas['io.k8s.api.core.v1.PodAffinityTerm']).toMatchObject({ required: ['topologyKey'] })
  })

  it('writes IntOrString, Quantity and Time as kube names them', () => {
    const { b, schema } = build({
      port: IntOrString,
      amounts: z.record(z.string(), Quantity).optional(),
      at: Time.nullable().optional(),
    })
    expect(schema.properties.port).toEqual({
      allOf: [ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString')],
      description: 'an integer or a string',
    })
    expect(schema.properties.amounts).toEqual({
      type: 'object',
      additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'),
    })
    expect(b.schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({
      format: 'int-or-string',
      'x-kubernetes-int-or-string': true,
      oneOf: [{ type: 'integer' }, { type: 'string' }],
    })
    expect(b.schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({
      oneOf: [{ type: 'string' }, { type: 'number' }],
    })
    expect(b.schemas[`${META}.Time`]).toMatchObject({ type: 'string', format: 'date-time' })
  })

  it('puts list metadata on the property that declares it, and map types on the component', () => {
    const b = new ComponentBuilder()
    b.component('io.k8s.api.core.v1.Container', Container)
    const c = b.schemas['io.k8s.api.core.v1.Container'] as any
    expect(c.properties.ports).toMatchObject({
      type: 'array',
      items: ref('io.k8s.api.core.v1.ContainerPort'),
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-patch-strategy': 'merge',
    })
    expect(c.properties.command).toMatchObject({
      type: 'array',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'atomic',
    })
    expect(b.schemas['io.k8s.api.core.v1.ObjectFieldSelector']).toMatchObject({ 'x-kubernetes-map-type': 'atomic' })
  })

  it('marks the references kube declares +structType=atomic (OwnerReference, ObjectReference) as atomic', () => {
    const b = new ComponentBuilder()
    b.component(`${META}.ObjectMeta`, ObjectMeta)
    b.component('io.k8s.api.core.v1.ObjectReference', ObjectReference)
    expect(b.schemas[`${META}.OwnerReference`]).toMatchObject({ 'x-kubernetes-map-type': 'atomic' })
    expect(b.schemas['io.k8s.api.core.v1.ObjectReference']).toMatchObject({ 'x-kubernetes-map-type': 'atomic' })
  })

  it('writes maps of anything as plain objects and inline objects in place', () => {
    const { schema } = build({
      free: z.record(z.string(), z.unknown()),
      inner: z.strictObject({ a: z.string() }).optional(),
    })
    expect(schema.properties.free).toEqual({ type: 'object' })
    expect(schema.properties.inner).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })
  })
})
