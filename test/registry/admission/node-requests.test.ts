// NodeRestriction for evictions and token requests by a node (kube's admission_test.go cases for pods/eviction and
// serviceaccounts/token, ServiceAccountNodeAudienceRestriction on as in 1.33).
import { describe, expect, it } from 'vitest'
import { admitNodeEviction, admitNodeTokenRequest } from '../../../src/registry/admission/node-requests'
import type { RequestingNode } from '../../../src/registry/admission/node-restriction'
import type { KubeObject } from '../../../src/schema/meta'

const mynode: RequestingNode = { user: 'system:node:mynode', node: 'mynode' }
type Obj = Record<string, any>

const pod = (nodeName: string, volumes: Obj[] = []): KubeObject =>
  ({
    metadata: { name: 'mypod', namespace: 'ns', uid: 'pod-uid' },
    spec: { nodeName, serviceAccountName: 'mysa', containers: [{ name: 'c', image: 'x' }], volumes },
  }) as KubeObject

describe('evictions', () => {
  const eviction = (name: string) => ({ metadata: { name, namespace: 'ns' } })

  it('of pods bound to the node only', () => {
    expect(admitNodeEviction(mynode, 'ns', 'mypod', eviction('mypod'), pod('mynode'))).toBeNull()
    expect(admitNodeEviction(mynode, 'ns', 'mypod', eviction('mypod'), pod('othernode'))?.message).toBe(
      'pods "mypod" is forbidden: node mynode can only evict pods with spec.nodeName set to itself',
    )
  })

  it('a missing pod is the informer’s NotFound; a pod named nowhere cannot be judged', () => {
    expect(admitNodeEviction(mynode, 'ns', 'gone', eviction('gone'), null)).toMatchObject({
      code: 404,
      message: 'pod "gone" not found',
    })
    expect(admitNodeEviction(mynode, 'ns', '', { metadata: {} }, null)?.message).toBe(
      'pods "Unknown" is forbidden: could not determine pod from request data',
    )
  })
})

describe('token requests', () => {
  const request = (ref: Obj | null, audiences?: string[]) => ({
    spec: { ...(ref ? { boundObjectRef: ref } : {}), ...(audiences ? { audiences } : {}) },
  })
  const bound = { apiVersion: 'v1', kind: 'Pod', name: 'mypod', uid: 'pod-uid' }
  const never = async (_audience: string) => false
  const admit = (req: Obj, p: KubeObject | null, may = never) =>
    admitNodeTokenRequest(mynode, 'ns', 'mysa', req, p, may)
  const message = async (req: Obj, p: KubeObject | null, may = never) => (await admit(req, p, may))?.message

  it('bound to a live pod of the node', async () => {
    const projected = pod('mynode', [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }])
    expect(await admit(request(bound), projected)).toBeNull()
    expect(await message(request(null), projected)).toBe(
      'serviceaccounts "mysa" is forbidden: node requested token not bound to a pod',
    )
    expect(await message(request({ ...bound, kind: 'Secret' }), projected)).toBe(
      'serviceaccounts "mysa" is forbidden: node requested token not bound to a pod',
    )
    expect(await message(request({ ...bound, uid: '' }), projected)).toBe(
      'serviceaccounts "mysa" is forbidden: node requested token with a pod binding without a uid',
    )
    expect(await admit(request(bound), null)).toMatchObject({ code: 404, message: 'pod "mypod" not found' })
    expect(await message(request({ ...bound, uid: 'old-uid' }), projected)).toBe(
      'serviceaccounts "mysa" is forbidden: the UID in the bound object reference (old-uid) does not match the UID in record. The object might have been deleted and then recreated',
    )
    expect(await message(request(bound), pod('othernode'))).toBe(
      'serviceaccounts "mysa" is forbidden: node requested token bound to a pod scheduled on a different node',
    )
  })

  it('for at most one audience, one the pod’s token volumes use or the node is authorized to request', async () => {
    const foo = pod('mynode', [
      { name: 't', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'foo' } }] } },
    ])
    expect(await admit(request(bound, ['foo']), foo)).toBeNull()
    expect(await message(request(bound, ['foo', 'bar']), foo)).toBe(
      'serviceaccounts "mysa" is forbidden: node may only request 0 or 1 audiences',
    )
    expect(await message(request(bound, ['bar']), foo)).toBe(
      'serviceaccounts "mysa" is forbidden: audience "bar" not found in pod spec volume, system:node:mynode is not authorized to request tokens for this audience',
    )
    const asked: string[] = []
    const granted = async (audience: string) => {
      asked.push(audience)
      return audience === 'bar'
    }
    expect(await admit(request(bound, ['bar']), foo, granted)).toBeNull()
    expect(asked).toEqual(['bar'])
    // No audience is the pod's default token audience ('').
    expect(await message(request(bound), foo)).toBe(
      'serviceaccounts "mysa" is forbidden: audience "" not found in pod spec volume, system:node:mynode is not authorized to request tokens for this audience',
    )
  })
})
