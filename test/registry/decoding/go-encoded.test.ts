// Objects as kube stores them, end to end: omitempty fields sent empty are neither stored, answered nor recorded in
// managedFields (create, update, merge patch, server-side apply), while fields Go tags without omitempty stay.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req } from '../../helpers'
import { resourceByPlural } from '../../../src/registry/resources'
import { planCreate } from '../../../src/registry/store'
import type { KubeObject } from '../../../src/schema/meta'
import { omitEmptyCopy, omitEmptyFields } from '../../../src/registry/decoding/go-encoded'
import { goTypeOf } from '../../../src/registry/decoding/go-types'
import { ConfigMap } from '../../../src/schema/config-map'
import { Pod } from '../../../src/schema/pod'
import { Role } from '../../../src/schema/rbac'
import { Node } from '../../../src/schema/node'

const MERGE = { 'content-type': 'application/merge-patch+json' }
const APPLY = { 'content-type': 'application/apply-patch+yaml' }

const EMPTY_META = { finalizers: [], ownerReferences: [], labels: {}, annotations: {} }

describe('omitempty fields sent empty', () => {
  it('a ConfigMap keeps none of them, in its answer, its stored copy or its managedFields', async () => {
    const ns = await makeNamespace('omit')
    const path = `/api/v1/namespaces/${ns}/configmaps`
    const r = await req('POST', `${path}?fieldManager=m`, { metadata: { name: 'c', ...EMPTY_META }, data: {} })
    expect(r.status, r.text).toBe(201)
    for (const o of [r.json, (await req('GET', `${path}/c`)).json]) {
      expect(Object.keys(o.metadata).sort()).toEqual([
        'creationTimestamp',
        'name',
        'namespace',
        'resourceVersion',
        'uid',
      ])
      expect(o.data).toBeUndefined()
    }
    // Nothing to own: kube records no entry for a manager whose field set is empty.
    expect(r.json.metadata.managedFields).toBeUndefined()
  })

  it("a pod's empty hostname is neither kept nor owned", async () => {
    const ns = await makeNamespace('omit')
    const r = await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: 'p' },
      spec: { hostname: '', containers: [{ name: 'c', image: 'nginx' }] },
    })
    expect(r.status, r.text).toBe(201)
    expect('hostname' in r.json.spec).toBe(false)
    expect(JSON.stringify(r.json.metadata.managedFields)).not.toContain('f:hostname')
  })

  it('a merge patch or an update that empties them removes them', async () => {
    const ns = await makeNamespace('omit')
    const path = `/api/v1/namespaces/${ns}/configmaps/c`
    const c = await req('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'c', labels: { a: '1' } },
      data: { k: 'v' },
    })
    expect(c.status, c.text).toBe(201)
    const p = await req('PATCH', path, { metadata: { labels: { a: null }, finalizers: [] }, data: { k: null } }, MERGE)
    expect(p.status, p.text).toBe(200)
    expect(p.json.metadata.labels).toBeUndefined()
    expect(p.json.metadata.finalizers).toBeUndefined()
    expect(p.json.data).toBeUndefined()
    // The creator owned only what is now gone: its entry goes with its last field.
    expect(p.json.metadata.managedFields).toBeUndefined()
    const body = { ...p.json, metadata: { ...p.json.metadata, annotations: {} }, data: {}, binaryData: {} }
    const u = await req('PUT', path, body)
    expect(u.status, u.text).toBe(200)
    expect(u.json.metadata.annotations).toBeUndefined()
    expect(u.json.data).toBeUndefined()
    expect(u.json.binaryData).toBeUndefined()
  })

  it('a server-side apply result does not carry them either', async () => {
    const ns = await makeNamespace('omit')
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {}\n  finalizers: []\ndata: {}\n'
    const r = await req('PATCH', `/api/v1/namespaces/${ns}/configmaps/c?fieldManager=ssa`, yaml, APPLY)
    expect(r.status, r.text).toBe(201)
    expect(r.json.metadata.labels).toBeUndefined()
    expect(r.json.metadata.finalizers).toBeUndefined()
    expect(r.json.data).toBeUndefined()
  })

  it('fields without omitempty stay empty: a Role keeps rules: []', async () => {
    const ns = await makeNamespace('omit')
    const r = await req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      metadata: { name: 'r', labels: {} },
      rules: [],
    })
    expect(r.status, r.text).toBe(201)
    expect(r.json.rules).toEqual([])
    expect(r.json.metadata.labels).toBeUndefined()
  })

  it("a controller's write (no body to decode) is stored as Go encodes it too", () => {
    const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
    const rs = {
      metadata: { name: 'rs', labels: {}, finalizers: [] },
      spec: {
        replicas: 0,
        selector: { matchLabels: { a: 'b' } },
        minReadySeconds: 0,
        template: {
          metadata: { labels: { a: 'b' }, annotations: {} },
          spec: { containers: [{ name: 'c', image: 'i', args: [], workingDir: '' }], hostname: '' },
        },
      },
    } as unknown as KubeObject
    const planned = planCreate(resourceByPlural('replicasets')!, ctx, rs, () => false)
    if (!planned.ok) throw new Error(planned.status.message)
    const o = planned.value.object as Record<string, any>
    expect(o.metadata.labels).toBeUndefined()
    expect(o.metadata.finalizers).toBeUndefined()
    // ReplicaSetSpec.replicas is a *int32: its zero stays.
    expect(o.spec.replicas).toBe(0)
    expect('minReadySeconds' in o.spec).toBe(false)
    expect(o.spec.template.metadata).toEqual({ labels: { a: 'b' } })
    expect('hostname' in o.spec.template.spec).toBe(false)
    expect(o.spec.template.spec.containers[0].args).toBeUndefined()
    expect(o.spec.template.spec.containers[0].workingDir).toBeUndefined()
  })

  it('validation sees the decoded value, empty maps included, as kube validates its Go object', async () => {
    const ns = await makeNamespace('omit')
    const r = await req('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: {} },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    })
    expect(r.status, r.text).toBe(422)
    expect(r.json.message).toContain(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    )
  })
})

// omitEmptyCopy: the field manager's copy of a write, made and encoded in one walk, must be exactly what a structured
// clone followed by omitEmptyFields gives (the two used to run one after the other), and leave its input alone.
const POD = goTypeOf(Pod, 'v1.Pod')

/** The two-step encoding the copy replaces. */
function cloneThenOmit(doc: unknown, type = POD) {
  const copy = structuredClone(doc)
  omitEmptyFields(copy, type)
  return copy
}

function pod(): Record<string, any> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'n',
      generateName: '',
      labels: { a: '', '10': 'x', '9': 'y' },
      annotations: {},
      finalizers: [],
      managedFields: [{ manager: 'm', fieldsV1: { 'f:metadata': { '.': {} } } }],
    },
    spec: {
      hostname: '',
      hostNetwork: false,
      nodeSelector: {},
      tolerations: [],
      terminationGracePeriodSeconds: 0,
      containers: [
        { name: 'c', image: 'i', ports: [{ containerPort: 0, hostPort: 0, name: '' }], args: [], resources: {} },
      ],
      unknownField: { inner: '', list: [] },
    },
    status: { phase: 'Pending', conditions: [], hostIP: '' },
  }
}

describe('omitEmptyCopy', () => {
  it('equals a structured clone with omitEmptyFields applied, field order included', () => {
    const input = pod()
    const copy = omitEmptyCopy(input, POD)
    const expected = cloneThenOmit(input)
    expect(copy).toStrictEqual(expected)
    expect(JSON.stringify(copy)).toBe(JSON.stringify(expected))
    const spec = (copy as Record<string, any>).spec
    expect(spec.hostname).toBeUndefined()
    expect(spec.terminationGracePeriodSeconds).toBe(0) // a pointer: its zero value stays
    expect(spec.unknownField).toEqual({ inner: '', list: [] }) // fields the Go type does not declare are copied whole
  })

  it('leaves its input as it was and shares nothing with it', () => {
    const input = pod()
    const before = structuredClone(input)
    const copy = omitEmptyCopy(input, POD) as Record<string, any>
    expect(input).toStrictEqual(before)
    copy.spec.containers[0].name = 'changed'
    copy.metadata.labels.a = 'changed'
    expect(input.spec.containers[0].name).toBe('c')
    expect(input.metadata.labels.a).toBe('')
  })

  it('keeps an own __proto__ key as a key, as a structured clone does', () => {
    const input = pod()
    input.metadata.labels = JSON.parse('{"__proto__":"v","b":""}')
    const copy = omitEmptyCopy(input, POD) as Record<string, any>
    expect(Object.keys(copy.metadata.labels)).toEqual(['__proto__', 'b'])
    expect(Object.getPrototypeOf(copy.metadata.labels)).toBe(Object.prototype)
    expect(copy).toStrictEqual(cloneThenOmit(input))
  })

  it('copies undefined fields and values that are not plain data as a structured clone does', () => {
    class Boxed {
      constructor(readonly value: number) {}
    }
    const input = pod()
    input.metadata.resourceVersion = undefined
    input.spec.priority = new Boxed(1)
    input.metadata.creationTimestamp = new Date(0)
    const copy = omitEmptyCopy(input, POD) as Record<string, any>
    expect(copy).toStrictEqual(cloneThenOmit(input))
    expect('resourceVersion' in copy.metadata).toBe(true)
  })

  it('agrees on other kinds: a ConfigMap, a Role, a Node', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: {} }, data: {}, immutable: false }
    const role = { metadata: { name: 'r', finalizers: [] }, rules: [{ apiGroups: [], verbs: [], resources: [''] }] }
    const node = { metadata: { name: 'n' }, spec: { podCIDR: '', podCIDRs: [], taints: [] }, status: { addresses: [] } }
    for (const [doc, type] of [
      [cm, goTypeOf(ConfigMap, 'v1.ConfigMap')],
      [role, goTypeOf(Role, 'v1.Role')],
      [node, goTypeOf(Node, 'v1.Node')],
    ] as const) {
      expect(omitEmptyCopy(doc, type)).toStrictEqual(cloneThenOmit(doc, type))
    }
  })
})
