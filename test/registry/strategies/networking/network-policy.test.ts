// NetworkPolicy through the pure store, table-driven against kube 1.33's networking validation: whole Status
// messages, the defaults (TCP, policyTypes), generation, the table.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result } from '../../../../src/registry/status'
import { planCreate, planUpdate } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

type Obj = KubeObject & Record<string, any>
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
const np = (spec: Record<string, unknown>) =>
  ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'p', namespace: 'default' },
    spec,
  }) as KubeObject
const def = () => resourceByPlural('networkpolicies')!
const create = (body: KubeObject) =>
  planCreate(def(), ctx, structuredClone(body), () => false) as Result<{ object: Obj }>
const message = (r: Result<unknown>) => (r.ok ? 'accepted' : r.status.message)
const head = 'NetworkPolicy.networking.k8s.io "p" is invalid: '

describe('NetworkPolicy validation', () => {
  const cases: [string, KubeObject, string][] = [
    ['an empty spec (deny all ingress)', np({ podSelector: {} }), 'accepted'],
    [
      'a full policy',
      np({
        podSelector: { matchLabels: { app: 'db' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }], ports: [{ port: 5432 }] }],
        egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 'dns' }] }],
      }),
      'accepted',
    ],
    [
      'an unknown protocol',
      np({ podSelector: {}, ingress: [{ ports: [{ protocol: 'ICMP', port: 1 }] }] }),
      `${head}spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"`,
    ],
    [
      'port 0',
      np({ podSelector: {}, ingress: [{ ports: [{ port: 0 }] }] }),
      `${head}spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`,
    ],
    [
      'an end port below the port',
      np({ podSelector: {}, egress: [{ ports: [{ port: 80, endPort: 70 }] }] }),
      `${head}spec.egress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to \`port\``,
    ],
    [
      'an end port with a named port',
      np({ podSelector: {}, egress: [{ ports: [{ port: 'http', endPort: 90 }] }] }),
      `${head}spec.egress[0].ports[0].endPort: Invalid value: 90: may not be specified when \`port\` is non-numeric`,
    ],
    [
      'an end port without a port',
      np({ podSelector: {}, egress: [{ ports: [{ endPort: 90 }] }] }),
      `${head}spec.egress[0].ports[0].endPort: Invalid value: 90: may not be specified when \`port\` is not specified`,
    ],
    [
      'an empty peer',
      np({ podSelector: {}, ingress: [{ from: [{}] }] }),
      `${head}spec.ingress[0].from[0]: Required value: must specify a peer`,
    ],
    [
      'an ipBlock with a selector',
      np({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] }),
      `${head}spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer`,
    ],
    [
      'a bad CIDR',
      np({ podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0' } }] }] }),
      `${head}spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`,
    ],
    [
      'an exception outside the block',
      np({ podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }] }] }),
      `${head}spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of \`cidr\``,
    ],
    [
      'an exception as wide as the block',
      np({ podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/16'] } }] }] }),
      `${head}spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.0.0.0/16": must be a strict subset of \`cidr\``,
    ],
    [
      'an unknown policy type',
      np({ podSelector: {}, policyTypes: ['Sideways'] }),
      `${head}spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"`,
    ],
    [
      'three policy types',
      np({ podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Ingress'] }),
      `${head}spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes`,
    ],
    [
      'a bad selector operator',
      np({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } }),
      `${head}spec.podSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator`,
    ],
  ]
  for (const [name, body, want] of cases) it(name, () => expect(message(create(body))).toBe(want))
})

describe('NetworkPolicy defaults and generation', () => {
  it('defaults port protocols to TCP and policyTypes from the rules', () => {
    const only = create(np({ podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] }))
    expect(only.ok && only.value.object.spec).toEqual({
      podSelector: {},
      ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }],
      policyTypes: ['Ingress'],
    })
    const both = create(np({ podSelector: {}, egress: [{}] }))
    expect(both.ok && both.value.object.spec.policyTypes).toEqual(['Ingress', 'Egress'])
    const given = create(np({ podSelector: {}, egress: [{}], policyTypes: ['Egress'] }))
    expect(given.ok && given.value.object.spec.policyTypes).toEqual(['Egress'])
  })

  it('counts generations of the spec only', () => {
    const made = create(np({ podSelector: {} }))
    if (!made.ok) throw new Error(made.status.message)
    const stored = {
      object: { ...made.value.object, metadata: { ...made.value.object.metadata, resourceVersion: '5' } },
      rv: 5,
    }
    expect(stored.object.metadata.generation).toBe(1)
    const changed: Obj = structuredClone(stored.object)
    changed.spec.podSelector = { matchLabels: { a: 'b' } }
    const updated = planUpdate(def(), ctx, 'p', changed as KubeObject, stored as never) as Result<{
      object: KubeObject
    }>
    expect(updated.ok && updated.value.object.metadata.generation).toBe(2)
    const labelled = structuredClone(stored.object)
    labelled.metadata.labels = { x: 'y' }
    const relabelled = planUpdate(def(), ctx, 'p', labelled as KubeObject, stored as never) as Result<{
      object: KubeObject
    }>
    expect(relabelled.ok && relabelled.value.object.metadata.generation).toBe(1)
  })

  it('keeps an already invalid selector value through an update (AllowInvalidLabelValueInSelector)', () => {
    const bad = { matchExpressions: [{ key: 'a', operator: 'In', values: ['not valid!'] }] }
    const refused = create(np({ podSelector: bad }))
    expect(message(refused)).toContain('spec.podSelector.matchExpressions[0].values[0]: Invalid value: "not valid!"')
    const made = create(np({ podSelector: {} }))
    if (!made.ok) throw new Error(made.status.message)
    const stored = {
      object: <Obj>{ ...made.value.object, spec: { podSelector: bad, policyTypes: ['Ingress'] } },
      rv: 5,
    }
    const next = structuredClone(stored.object)
    next.metadata.resourceVersion = '5'
    next.metadata.labels = { x: 'y' }
    expect(message(planUpdate(def(), ctx, 'p', next as KubeObject, stored as never))).toBe('accepted')
  })
})

describe('NetworkPolicy table', () => {
  it('prints kubectl get netpol columns', () => {
    const t = def().strategy.table
    expect(t.columns.map((c) => c.name)).toEqual(['Name', 'Pod-Selector', 'Age'])
    const made = create(np({ podSelector: { matchLabels: { app: 'db' } } }))
    if (!made.ok) throw new Error(made.status.message)
    made.value.object.metadata.creationTimestamp = '2025-12-31T23:00:00Z'
    expect(t.cells(made.value.object, ctx.now)).toEqual(['p', 'app=db', '60m'])
    const all = create(np({ podSelector: {} }))
    expect(all.ok && t.cells(all.value.object, ctx.now)[1]).toBe('<none>')
  })
})
