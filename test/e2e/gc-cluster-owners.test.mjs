// The garbage collector with cluster-scoped owners of namespaced objects, through kubectl, as operators use it: a
// cluster-scoped custom resource (a Tenant) owns ConfigMaps in two namespaces. kubectl delete takes them along,
// --cascade=foreground keeps the Tenant (foregroundDeletion) until its blocking dependents are gone, and
// --cascade=orphan releases them. A ConfigMap owned by a cluster-scoped kind whose CRD is not installed yet is kept,
// and collected once the CRD is established and has no such owner.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, uniqueNs } from './helpers.mjs'

const V = '1.33'
const stamp = Date.now().toString(36)
const GROUP = `gct${stamp}.example.com`
const LATE = `gcl${stamp}.example.com`
const TENANTS = `tenants.${GROUP}`
const [nsA, nsB] = [uniqueNs('gc-cluster-a'), uniqueNs('gc-cluster-b')]

const crd = (group, plural, kind) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Cluster',
    names: { plural, kind },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
})

async function waitFor(what, check, timeout = 20_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

async function tenant(name) {
  const obj = { apiVersion: `${GROUP}/v1`, kind: 'Tenant', metadata: { name }, spec: {} }
  await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(obj) })
  return JSON.parse((await kubectl(V, ['get', TENANTS, name, '-o', 'json'])).stdout)
}

const ref = (o, block = false) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.metadata.name,
  uid: o.metadata.uid,
  ...(block ? { blockOwnerDeletion: true } : {}),
})

async function configMap(ns, name, ownerReferences, extra = {}) {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, ownerReferences, ...extra } }
  await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(obj) })
}

async function getCm(ns, name) {
  const r = await kubectl(V, ['-n', ns, 'get', 'cm', name, '-o', 'json'], { allowFail: true })
  return r.code === 0 ? JSON.parse(r.stdout) : null
}
const cmGone = (ns, name) =>
  waitFor(`configmap ${ns}/${name} gone`, async () => ((await getCm(ns, name)) === null ? true : undefined))
const tenantExists = async (name) => (await kubectl(V, ['get', TENANTS, name], { allowFail: true })).code === 0

describe('garbage collector: a cluster-scoped owner of ConfigMaps in two namespaces (kubectl)', () => {
  before(async () => {
    for (const ns of [nsA, nsB]) await kubectl(V, ['create', 'namespace', ns])
    await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(crd(GROUP, 'tenants', 'Tenant')) })
    await kubectl(V, ['wait', '--for', 'condition=established', `crd/${TENANTS}`, '--timeout=30s'])
  })
  after(async () => {
    for (const ns of [nsA, nsB]) await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
    for (const name of [TENANTS, `gizmos.${LATE}`]) {
      await kubectl(V, ['delete', 'crd', name, '--wait=false'], { allowFail: true })
    }
  })

  it('kubectl delete: the ConfigMaps in both namespaces go with the Tenant', async () => {
    const t = await tenant(`bg-${stamp}`)
    await configMap(nsA, 'bg', [ref(t)])
    await configMap(nsB, 'bg', [ref(t)])
    await kubectl(V, ['delete', TENANTS, t.metadata.name])
    await cmGone(nsA, 'bg')
    await cmGone(nsB, 'bg')
  })

  it('kubectl delete --cascade=foreground: the Tenant waits until its blocking ConfigMaps are gone', async () => {
    const t = await tenant(`fg-${stamp}`)
    await configMap(nsA, 'fg', [ref(t, true)])
    await configMap(nsB, 'fg', [ref(t, true)], { finalizers: ['example.com/hold'] })
    await kubectl(V, ['delete', TENANTS, t.metadata.name, '--cascade=foreground', '--wait=false'])
    await cmGone(nsA, 'fg')
    const held = await waitFor('the held ConfigMap deleting', async () => {
      const cm = await getCm(nsB, 'fg')
      return cm?.metadata.deletionTimestamp ? cm : undefined
    })
    assert.deepEqual(held.metadata.finalizers, ['example.com/hold'])
    const waiting = JSON.parse((await kubectl(V, ['get', TENANTS, t.metadata.name, '-o', 'json'])).stdout)
    assert.deepEqual(waiting.metadata.finalizers, ['foregroundDeletion'])
    assert.ok(waiting.metadata.deletionTimestamp)
    await kubectl(V, ['-n', nsB, 'patch', 'cm', 'fg', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'])
    await kubectl(V, ['wait', '--for=delete', `${TENANTS}/${t.metadata.name}`, '--timeout=30s'])
    assert.equal(await getCm(nsB, 'fg'), null)
  })

  it('kubectl delete --cascade=orphan: the ConfigMaps in both namespaces stay, released', async () => {
    const t = await tenant(`or-${stamp}`)
    await configMap(nsA, 'or', [ref(t)])
    await configMap(nsB, 'or', [ref(t)])
    await kubectl(V, ['delete', TENANTS, t.metadata.name, '--cascade=orphan'])
    await waitFor('the Tenant gone', async () => ((await tenantExists(t.metadata.name)) ? undefined : true))
    for (const ns of [nsA, nsB]) {
      const cm = await getCm(ns, 'or')
      assert.ok(cm, `${ns}/or was deleted`)
      assert.equal(cm.metadata.ownerReferences, undefined)
    }
  })

  it('a ConfigMap owned by a kind whose CRD is not installed yet is kept, then collected once it is', async () => {
    const ghost = { apiVersion: `${LATE}/v1`, kind: 'Gizmo', name: 'g', uid: '00000000-0000-0000-0000-00000000a11e' }
    await configMap(nsA, 'early', [ghost])
    await new Promise((r) => setTimeout(r, 1500))
    assert.ok(await getCm(nsA, 'early'), 'a dependent of a kind not served yet was deleted')
    await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(crd(LATE, 'gizmos', 'Gizmo')) })
    await kubectl(V, ['wait', '--for', 'condition=established', `crd/gizmos.${LATE}`, '--timeout=30s'])
    await cmGone(nsA, 'early')
  })
})
