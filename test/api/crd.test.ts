// CustomResourceDefinitions through the API: create with kube's defaults and status, validation as kube words it,
// generation and storedVersions on update, /status, deletion held by the cleanup finalizer.
import { describe, expect, it } from 'vitest'
import { req } from '../helpers'
import { install } from '../support/crds'

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'

let n = 0
/** A CronTab-like CRD in a group of its own, so tests do not share kinds. */
function crdBody(overrides: { group?: string; plural?: string; kind?: string; versions?: unknown[] } = {}) {
  const group = overrides.group ?? `t${Date.now().toString(36)}${n++}.example.com`
  const plural = overrides.plural ?? 'crontabs'
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, kind: overrides.kind ?? 'CronTab', shortNames: ['ct'] },
      versions: overrides.versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    cronSpec: { type: 'string' },
                    image: { type: 'string' },
                    replicas: { type: 'integer' },
                  },
                },
              },
            },
          },
        },
      ],
    },
  }
}

describe('CustomResourceDefinition', () => {
  it('is created with kube defaults, generation 1 and the storage version recorded', async () => {
    const body = crdBody()
    const r = await req('POST', CRDS, body)
    expect(r.status, r.text).toBe(201)
    expect(r.json.metadata.generation).toBe(1)
    expect(r.json.spec.names).toEqual({
      plural: 'crontabs',
      singular: 'crontab',
      shortNames: ['ct'],
      kind: 'CronTab',
      listKind: 'CronTabList',
    })
    expect(r.json.spec.conversion).toEqual({ strategy: 'None' })
    expect(r.json.status.storedVersions).toEqual(['v1'])
    const got = await req('GET', `${CRDS}/${body.metadata.name}`)
    expect(got.status).toBe(200)
    expect(got.json.spec.group).toBe(body.spec.group)
  })

  it('refuses a name other than <plural>.<group>, with kube words', async () => {
    const body = crdBody()
    body.metadata.name = 'wrong.example.com'
    const r = await req('POST', CRDS, body)
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "wrong.example.com" is invalid: metadata.name: Invalid value: "wrong.example.com": must be spec.names.plural+"."+spec.group`,
    )
  })

  it('reports schema errors under spec.validation when every version shares the schema', async () => {
    const body = crdBody()
    ;(body.spec.versions[0] as any).schema.openAPIV3Schema.properties.spec.properties.cronSpec = {}
    const r = await req('POST', CRDS, body)
    expect(r.status, r.text).toBe(422)
    expect(r.json.details.causes).toContainEqual({
      reason: 'FieldValueRequired',
      message: 'Required value: must not be empty for specified object fields',
      field: 'spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].type',
    })
  })

  it('bumps generation on spec changes only, and keeps status from spec writes', async () => {
    const body = crdBody()
    // The CRD controller writes status (NamesAccepted, Established) right after the create: the PUTs below carry a
    // resourceVersion, so start from the CRD once it is Established.
    const created = await install(body)
    const path = `${CRDS}/${body.metadata.name}`
    const labelled = await req('PUT', path, { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } })
    expect(labelled.status, labelled.text).toBe(200)
    expect(labelled.json.metadata.generation).toBe(1)
    const next = structuredClone(labelled.json)
    next.spec.names.shortNames = ['ctt']
    next.status = { storedVersions: ['v9'] }
    const changed = await req('PUT', path, next)
    expect(changed.status, changed.text).toBe(200)
    expect(changed.json.metadata.generation).toBe(2)
    expect(changed.json.status.storedVersions).toEqual(['v1'])
  })

  it('refuses a Webhook conversion with a clear 422', async () => {
    const body: any = crdBody()
    body.spec.conversion = {
      strategy: 'Webhook',
      webhook: { clientConfig: { url: 'https://conv.example.com/convert' }, conversionReviewVersions: ['v1'] },
    }
    const r = await req('POST', CRDS, body)
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toContain('spec.conversion.strategy: Forbidden: conversion webhooks are not supported')
  })

  it('refuses defaults that are not valid or not pruned, and rules that do not compile', async () => {
    const body: any = crdBody()
    const spec = body.spec.versions[0].schema.openAPIV3Schema.properties.spec
    spec.properties.replicas.default = 'three'
    spec.properties.image.default = 'x'
    spec.properties.cronSpec = { type: 'object', properties: { a: { type: 'string' } }, default: { b: 1 } }
    spec['x-kubernetes-validations'] = [{ rule: 'self.replica > 0' }]
    const r = await req('POST', CRDS, body)
    expect(r.status, r.text).toBe(422)
    const V = 'spec.validation.openAPIV3Schema.properties[spec]'
    expect(r.json.details.causes.map((c: any) => `${c.field}: ${c.message}`)).toEqual([
      `${V}.properties[cronSpec].default: Invalid value: {"b":1}: must not have unknown fields`,
      `${V}.properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
    ])
    delete spec.properties.cronSpec.default
    spec.properties.replicas.default = 1
    const rules = await req('POST', CRDS, body)
    expect(rules.status, rules.text).toBe(422)
    expect(rules.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: apiextensions.ValidationRule{Rule:"self.replica > 0", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'replica\'\n | self.replica > 0\n | ....^',
        field: `${V}.x-kubernetes-validations[0].rule`,
      },
    ])
  })

  it.each([
    [
      'an approved protected group',
      'https://github.com/kubernetes/enhancements/pull/1111',
      ['True', 'ApprovedAnnotation', 'approved in https://github.com/kubernetes/enhancements/pull/1111'],
    ],
    [
      'an unapproved protected group',
      'unapproved, experimental-only',
      ['False', 'UnapprovedAnnotation', 'not approved: "unapproved, experimental-only"'],
    ],
  ])('sets KubernetesAPIApprovalPolicyConformant for %s', async (_name, annotation, want) => {
    const body: any = crdBody({ group: `t${Date.now().toString(36)}${n++}.k8s.io` })
    body.metadata.annotations = { 'api-approved.kubernetes.io': annotation }
    const r = await req('POST', CRDS, body)
    expect(r.status, r.text).toBe(201)
    let cond: any
    for (let i = 0; i < 100 && !cond; i++) {
      const got = (await req('GET', `${CRDS}/${body.metadata.name}`)).json
      cond = got.status?.conditions?.find((c: any) => c.type === 'KubernetesAPIApprovalPolicyConformant')
      if (!cond) await new Promise((res) => setTimeout(res, 50))
    }
    expect([cond?.status, cond?.reason, cond?.message]).toEqual(want)
    expect(cond.lastTransitionTime).toMatch(/Z$/)
  })

  it('sets no approval condition outside the protected groups', async () => {
    const body: any = crdBody()
    expect((await req('POST', CRDS, body)).status).toBe(201)
    let conditions: any[] = []
    for (let i = 0; i < 100 && !conditions.some((c) => c.type === 'Established'); i++) {
      conditions = (await req('GET', `${CRDS}/${body.metadata.name}`)).json.status?.conditions ?? []
      if (!conditions.some((c) => c.type === 'Established')) await new Promise((res) => setTimeout(res, 50))
    }
    expect(conditions.map((c) => c.type)).toEqual(['NamesAccepted', 'Established'])
  })
})
