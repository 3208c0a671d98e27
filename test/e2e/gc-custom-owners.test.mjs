// The garbage collector with custom owners, through kubectl: two CRDs in two groups both name their kind Widget and a
// third names its kind Deployment; a ConfigMap owned by one of them outlives its other owner (the owner is found by
// group and kind, not by Kind alone), and kubectl delete --cascade=foreground/orphan of a custom owner deletes or
// releases its dependents. Cluster-scoped custom resources cascade too (kube's e2e "should support cascading deletion
// of custom resources" uses a cluster-scoped CRD).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, uniqueNs } from './helpers.mjs'

const V = '1.33'
const stamp = Date.now().toString(36)
const GA = `gca${stamp}.example.com`
const GB = `gcb${stamp}.example.com`
const GC = `gcc${stamp}.example.com`
const ns = uniqueNs('gc-custom')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)

const crd = (group, plural, kind, scope = 'Namespaced') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope,
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
const CRDS = [
  crd(GA, 'widgets', 'Widget'),
  crd(GB, 'widgets', 'Widget'),
  crd(GC, 'deployments', 'Deployment'),
  crd(GA, 'gadgets', 'Gadget', 'Cluster'),
]

/** Applies `obj` in the namespace and answers the stored object. */
async function apply(obj) {
  await k(['apply', '-f', '-'], { input: JSON.stringify(obj) })
  const kind = obj.apiVersion.includes('/') ? `${obj.kind.toLowerCase()}s.${obj.apiVersion.split('/')[0]}` : 'cm'
  return JSON.parse((await k(['get', kind, obj.metadata.name, '-o', 'json'])).stdout)
}
const ref = (o) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid })
const configMap = (name, owners) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ownerReferences: owners.map(ref) },
})
const custom = (group, kind, name) => ({ apiVersion: `${group}/v1`, kind, metadata: { name }, spec: {} })

async function getCm(name) {
  const r = await k(['get', 'cm', name, '-o', 'json'], { allowFail: true })
  return r.code === 0 ? JSON.parse(r.stdout) : null
}
async function waitFor(what, check, timeout = 20_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe('garbage collector and custom owners (kubectl)', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
    await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: CRDS }) })
    for (const c of CRDS) {
      await kubectl(V, ['wait', '--for', 'condition=established', `crd/${c.metadata.name}`, '--timeout=30s'])
    }
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
    for (const c of CRDS) await kubectl(V, ['delete', 'crd', c.metadata.name, '--wait=false'], { allowFail: true })
  })

  it('a dependent of a Widget in the second group outlives its other owner', async () => {
    const other = await apply(configMap('other', []))
    const w = await apply(custom(GB, 'Widget', 'w'))
    await apply(configMap('dep', [other, w]))
    await k(['delete', 'cm', 'other'])
    // Give the collector time to act on the deletion, then check the dependent is still there.
    await new Promise((r) => setTimeout(r, 1500))
    const dep = await getCm('dep')
    assert.ok(dep, 'the ConfigMap owned by the existing Widget was deleted')
  })

  it('a custom Deployment keeps its dependents; deleted with --cascade=orphan it releases them', async () => {
    const d = await apply(custom(GC, 'Deployment', 'd'))
    const other = await apply(configMap('other2', []))
    await apply(configMap('owned', [other, d]))
    await k(['delete', 'cm', 'other2'])
    await new Promise((r) => setTimeout(r, 1500))
    assert.ok(await getCm('owned'), "the custom Deployment's dependent was deleted as if apps' Deployment owned it")
    await k(['delete', `deployments.${GC}`, 'd', '--cascade=orphan'])
    const released = await waitFor('the released dependent', async () => {
      const cm = await getCm('owned')
      return cm && !(cm.metadata.ownerReferences ?? []).some((r) => r.uid === d.metadata.uid) ? cm : undefined
    })
    assert.equal(released.metadata.name, 'owned')
  })

  it('a Widget deleted with --cascade=foreground takes its dependent first', async () => {
    const w = await apply(custom(GA, 'Widget', 'fg'))
    await apply(configMap('fg-dep', [w]))
    await k(['delete', `widgets.${GA}`, 'fg', '--cascade=foreground', '--timeout=30s'])
    await waitFor('the dependent gone', async () => ((await getCm('fg-dep')) === null ? true : undefined))
    const r = await k(['get', `widgets.${GA}`, 'fg'], { allowFail: true })
    assert.match(r.stderr, /NotFound/)
  })

  it('a cluster-scoped custom resource goes with its cluster-scoped owner; --cascade=foreground waits for it', async () => {
    const gadgets = `gadgets.${GA}`
    const make = async (name, owner) => {
      const metadata = { name, ...(owner ? { ownerReferences: [{ ...ref(owner), blockOwnerDeletion: true }] } : {}) }
      await kubectl(V, ['apply', '-f', '-'], {
        input: JSON.stringify({ apiVersion: `${GA}/v1`, kind: 'Gadget', metadata, spec: {} }),
      })
      return JSON.parse((await kubectl(V, ['get', gadgets, name, '-o', 'json'])).stdout)
    }
    const exists = async (name) => (await kubectl(V, ['get', gadgets, name], { allowFail: true })).code === 0
    const owner = await make(`owner-${stamp}`)
    await make(`dep-${stamp}`, owner)
    await kubectl(V, ['delete', gadgets, owner.metadata.name])
    await waitFor('the dependent gadget gone', async () => ((await exists(`dep-${stamp}`)) ? undefined : true))
    const fg = await make(`fg-${stamp}`)
    await make(`fg-dep-${stamp}`, fg)
    await kubectl(V, ['delete', gadgets, fg.metadata.name, '--cascade=foreground', '--timeout=30s'])
    assert.equal(await exists(`fg-dep-${stamp}`), false)
    assert.equal(await exists(fg.metadata.name), false)
  })
})
