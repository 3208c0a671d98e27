// encoding/json's omitempty as kube's Go types declare it (go-json-fields.ts, generated from kube 1.33's sources):
// stored objects lose the omitempty fields holding their empty value; pointers, structs and untagged fields stay.
import { describe, expect, it } from 'vitest'
import { decodeObject, type DecodeTarget } from '../../../src/registry/decode'
import { GO_JSON_FIELDS } from '../../../src/registry/decoding/go-json-fields'
import { isGoEmpty, omitEmptyKind } from '../../../src/registry/decoding/go-omit-empty'
import { omitEmptyFields } from '../../../src/registry/decoding/go-encoded'
import { goTypeOf } from '../../../src/registry/decoding/go-types'
import { ConfigMap } from '../../../src/schema/config-map'
import { Pod } from '../../../src/schema/pod'
import { Role } from '../../../src/schema/rbac'
import { EndpointSlice } from '../../../src/schema/endpoint-slice'
import { Node } from '../../../src/schema/node'
import { customCodec } from '../../../src/registry/custom/custom-codec'

/** A body decoded, then encoded as the store encodes what it keeps. */
function decode(target: DecodeTarget, body: unknown) {
  const value = decodeObject<Record<string, any>>(
    target,
    { format: 'json', text: JSON.stringify(body) },
    'Strict',
  ).value
  omitEmptyFields(value, goTypeOf(target.schema, `v1.${target.kind}`))
  return value
}

describe('the generated table of Go json tags', () => {
  it('has the tags of kube 1.33 types.go', () => {
    expect(GO_JSON_FIELDS.ObjectMeta!.finalizers).toBe('slice,omitempty')
    expect(GO_JSON_FIELDS.ObjectMeta!.labels).toBe('map,omitempty')
    expect(GO_JSON_FIELDS.ObjectMeta!.uid).toBe('string,omitempty') // types.UID is a string
    expect(GO_JSON_FIELDS.ObjectMeta!.creationTimestamp).toBe('struct,omitempty')
    expect(GO_JSON_FIELDS.ObjectMeta!.deletionGracePeriodSeconds).toBe('pointer,omitempty')
    expect(GO_JSON_FIELDS.PolicyRule!.verbs).toBe('slice')
    expect(GO_JSON_FIELDS.Role!.rules).toBe('slice')
    expect(GO_JSON_FIELDS.PodSpec!.containers).toBe('slice')
    expect(GO_JSON_FIELDS.PodSpec!.hostname).toBe('string,omitempty')
    expect(GO_JSON_FIELDS.PodSpec!.nodeSelector).toBe('map,omitempty')
    expect(GO_JSON_FIELDS.ContainerPort!.containerPort).toBe('number')
    expect(GO_JSON_FIELDS.ResourceRequirements!.limits).toBe('map,omitempty') // ResourceList is a map
    // Embedded structs promote their fields: TypeMeta's, a Volume's VolumeSource.
    expect(GO_JSON_FIELDS.ConfigMap!.kind).toBe('string,omitempty')
    expect(GO_JSON_FIELDS.Volume!.configMap).toBe('pointer,omitempty')
    expect(GO_JSON_FIELDS.Volume!.VolumeSource).toBeUndefined()
  })

  it('marks only value fields with omitempty as droppable', () => {
    expect(omitEmptyKind('ObjectMeta', 'finalizers')).toBe('slice')
    expect(omitEmptyKind('ConfigMap', 'data')).toBe('map')
    expect(omitEmptyKind('PodSpec', 'hostNetwork')).toBe('bool')
    expect(omitEmptyKind('ObjectMeta', 'generation')).toBe('number')
    expect(omitEmptyKind('ObjectMeta', 'creationTimestamp')).toBeNull()
    expect(omitEmptyKind('PodSpec', 'terminationGracePeriodSeconds')).toBeNull()
    expect(omitEmptyKind('Role', 'rules')).toBeNull()
    expect(omitEmptyKind('NoSuchStruct', 'x')).toBeNull()
    // EndpointPort is core/v1's (name string,omitempty) and discovery/v1's (name *string): only what both drop goes.
    expect(omitEmptyKind('EndpointPort', 'name')).toBeNull()
  })

  it("compares with Go's empty values", () => {
    expect(isGoEmpty('', 'string')).toBe(true)
    expect(isGoEmpty(' ', 'string')).toBe(false)
    expect(isGoEmpty(0, 'number')).toBe(true)
    expect(isGoEmpty(false, 'bool')).toBe(true)
    expect(isGoEmpty([], 'slice')).toBe(true)
    expect(isGoEmpty('', 'slice')).toBe(true) // a []byte's base64
    expect(isGoEmpty([''], 'slice')).toBe(false)
    expect(isGoEmpty({}, 'map')).toBe(true)
    expect(isGoEmpty({ a: '' }, 'map')).toBe(false)
  })
})

describe('a decoded object encoded as kube stores it', () => {
  it("drops a ConfigMap's empty metadata lists and maps and its empty data", () => {
    const cm = decode(
      { schema: ConfigMap, group: '', version: 'v1', kind: 'ConfigMap' },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', finalizers: [], ownerReferences: [], labels: {}, annotations: {}, generateName: '' },
        data: {},
        binaryData: {},
        immutable: false,
      },
    )
    // immutable is a *bool: false stays.
    expect(cm).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, immutable: false })
  })

  it("drops a pod's empty hostname and keeps its pointers' zero values and its empty containers", () => {
    const pod = decode(
      { schema: Pod, group: '', version: 'v1', kind: 'Pod' },
      {
        metadata: { name: 'p', labels: { a: '' } },
        spec: {
          hostname: '',
          hostNetwork: false,
          nodeSelector: {},
          tolerations: [],
          terminationGracePeriodSeconds: 0,
          containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 0, hostPort: 0, name: '' }], args: [] }],
        },
      },
    )
    expect(pod.metadata).toEqual({ name: 'p', labels: { a: '' } })
    expect(pod.spec).toEqual({
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 0 }] }],
    })
  })

  it('keeps the empty fields Go tags without omitempty (Role.rules, PolicyRule.verbs)', () => {
    const role = decode(
      { schema: Role, group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' },
      { metadata: { name: 'r', finalizers: [] }, rules: [] },
    )
    expect(role.rules).toEqual([])
    expect(role.metadata).toEqual({ name: 'r' })
    const rule = decode(
      { schema: Role, group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' },
      { metadata: { name: 'r' }, rules: [{ verbs: [], apiGroups: [], resources: [] }] },
    )
    expect(rule.rules).toEqual([{ verbs: [] }])
  })

  it("drops a Node's empty spec fields and an EndpointSlice endpoint's empty hints lists", () => {
    const node = decode(
      { schema: Node, group: '', version: 'v1', kind: 'Node' },
      { metadata: { name: 'n' }, spec: { podCIDR: '', podCIDRs: [], unschedulable: false, taints: [] } },
    )
    expect(node.spec).toEqual({})
    const slice = decode(
      { schema: EndpointSlice, group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' },
      {
        metadata: { name: 's' },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.0.0.1'], hints: { forZones: [], forNodes: [] }, conditions: { ready: false } }],
      },
    )
    expect(slice.endpoints).toEqual([{ addresses: ['10.0.0.1'], hints: {}, conditions: { ready: false } }])
  })

  it("keeps discovery/v1 EndpointPort's pointer fields", () => {
    const slice = decode(
      { schema: EndpointSlice, group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' },
      { metadata: { name: 's' }, addressType: 'IPv4', endpoints: [], ports: [{ name: '', port: 0 }] },
    )
    expect(slice.ports).toEqual([{ name: '', port: 0 }])
    expect(slice.endpoints).toEqual([])
  })

  it("a custom resource keeps its JSON as sent, but its metadata goes through ObjectMeta (the CRD handler's coercion)", () => {
    const doc: Record<string, any> = {
      apiVersion: 'x.test/v1',
      kind: 'X',
      metadata: { name: 'x', finalizers: [], labels: {}, annotations: { a: '' } },
      spec: { list: [], map: {}, text: '', flag: false, n: 0 },
    }
    expect(customCodec(null).decode(doc)).toEqual({ strict: [] })
    expect(doc.metadata).toEqual({ name: 'x', annotations: { a: '' } })
    expect(doc.spec).toEqual({ list: [], map: {}, text: '', flag: false, n: 0 })
  })
})
