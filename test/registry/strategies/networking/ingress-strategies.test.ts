// Ingress and IngressClass strategies through the pure store, table-driven against kube 1.33's networking
// validation: whole Status messages, defaults, generation, tables.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result } from '../../../../src/registry/status'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
const backend = { service: { name: 'web', port: { number: 80 } } }
const ing = (spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'i', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec,
  }) as KubeObject
const cls = (spec: Record<string, unknown>) =>
  ({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'k' }, spec }) as KubeObject
const create = (plural: string, body: KubeObject, namespace = 'default') =>
  planCreate(resourceByPlural(plural)!, { ...ctx, namespace }, structuredClone(body), () => false) as Result<{
    object: KubeObject
  }>
const message = (r: Result<unknown>) => (r.ok ? 'accepted' : r.status.message)
const rule = (host: string, path: Record<string, unknown>) => ({ host, http: { paths: [path] } })

describe('Ingress validation', () => {
  const head = 'Ingress.networking.k8s.io "i" is invalid: '
  const cases: [string, KubeObject, string][] = [
    ['a default backend alone', ing({ defaultBackend: backend }), 'accepted'],
    [
      'nothing to route',
      ing({}),
      `${head}spec: Invalid value: []networking.IngressRule(nil): either \`defaultBackend\` or \`rules\` must be specified`,
    ],
    [
      'an IP as host',
      ing({ rules: [rule('10.0.0.1', { path: '/', pathType: 'Prefix', backend })] }),
      `${head}spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address`,
    ],
    [
      'a wildcard host',
      ing({ rules: [rule('*.example.com', { path: '/', pathType: 'Prefix', backend })] }),
      'accepted',
    ],
    [
      'no pathType',
      ing({ rules: [rule('a.com', { path: '/', backend })] }),
      `${head}spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified`,
    ],
    [
      'a relative Prefix path',
      ing({ rules: [rule('a.com', { path: 'x', pathType: 'Prefix', backend })] }),
      `${head}spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path`,
    ],
    [
      'a path with //',
      ing({ rules: [rule('a.com', { path: '/a//b', pathType: 'Exact', backend })] }),
      `${head}spec.rules[0].http.paths[0].path: Invalid value: "/a//b": must not contain '//'`,
    ],
    [
      'an unknown pathType',
      ing({ rules: [rule('a.com', { path: '/', pathType: 'Regex', backend })] }),
      `${head}spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"`,
    ],
    [
      'a backend without port',
      ing({ defaultBackend: { service: { name: 'web' } } }),
      `${head}spec.defaultBackend: Required value: port name or number is required`,
    ],
    [
      'both port name and number',
      ing({ defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } }),
      `${head}spec.defaultBackend: Invalid value: "": cannot set both port name & port number`,
    ],
    [
      'no backend at all',
      ing({ defaultBackend: {} }),
      `${head}spec.defaultBackend: Invalid value: "": resource or service backend is required`,
    ],
    [
      'class and annotation disagree',
      ing({ defaultBackend: backend, ingressClassName: 'a' }, { 'kubernetes.io/ingress.class': 'b' }),
      `${head}annotations.kubernetes.io/ingress.class: Invalid value: "b": must match \`ingressClassName\` when both are specified`,
    ],
  ]
  for (const [name, body, expected] of cases) it(name, () => expect(message(create('ingresses', body))).toBe(expected))

  it('status starts empty, generation 1, bumped by spec changes only; kubectl get ingress cells', () => {
    const def = resourceByPlural('ingresses')!
    const r = create(
      'ingresses',
      ing({ rules: [rule('a.com', { path: '/', pathType: 'Prefix', backend })], tls: [{ hosts: ['a.com'] }] }),
    )
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.object.status).toEqual({ loadBalancer: {} })
    expect(r.value.object.metadata.generation).toBe(1)
    expect(def.strategy.table.cells(r.value.object, ctx.now)).toEqual(['i', '<none>', 'a.com', '', '80, 443', '0s'])
    const stored = {
      rv: 2,
      object: { ...r.value.object, metadata: { ...r.value.object.metadata, resourceVersion: '2' } },
    }
    const u = planUpdate(def, ctx, 'i', { ...stored.object, spec: { defaultBackend: backend } }, stored)
    if (!u.ok) throw new Error(u.status.message)
    expect((u.value as { object: KubeObject }).object.metadata.generation).toBe(2)
  })
})

describe('IngressClass validation', () => {
  const head = 'IngressClass.networking.k8s.io "k" is invalid: '
  const cases: [string, KubeObject, string][] = [
    ['a controller', cls({ controller: 'example.com/ingress' }), 'accepted'],
    ['no controller', cls({}), `${head}spec.controller: Required value`],
    [
      'a controller without a domain',
      cls({ controller: 'nginx' }),
      `${head}spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")`,
    ],
    [
      'a namespaced parameter without namespace',
      cls({ controller: 'a.io/b', parameters: { kind: 'C', name: 'n', scope: 'Namespace' } }),
      `${head}spec.parameters.namespace: Required value: \`parameters.scope\` is set to 'Namespace'`,
    ],
    [
      'an unknown scope',
      cls({ controller: 'a.io/b', parameters: { kind: 'C', name: 'n', scope: 'World' } }),
      `${head}spec.parameters.scope: Unsupported value: "World": supported values: "Cluster", "Namespace"`,
    ],
  ]
  for (const [name, body, expected] of cases)
    it(name, () => expect(message(create('ingressclasses', body, ''))).toBe(expected))

  it('the controller is immutable; parameters default to Cluster scope; kubectl get ingressclass cells', () => {
    const def = resourceByPlural('ingressclasses')!
    const r = create(
      'ingressclasses',
      cls({ controller: 'a.io/b', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } }),
      '',
    )
    if (!r.ok) throw new Error(r.status.message)
    expect((r.value.object.spec as any).parameters.scope).toBe('Cluster')
    expect(def.strategy.table.cells(r.value.object, ctx.now)).toEqual(['k', 'a.io/b', 'Params.k8s.example.com/p', '0s'])
    const stored = {
      rv: 2,
      object: { ...r.value.object, metadata: { ...r.value.object.metadata, resourceVersion: '2' } },
    }
    expect(message(planUpdate(def, { ...ctx, namespace: '' }, 'k', cls({ controller: 'a.io/c' }), stored))).toBe(
      `${head}spec.controller: Invalid value: "a.io/c": field is immutable`,
    )
  })
})
