// A PodDisruptionBudget over pods owned by a custom resource with the scale subresource, through kubectl: the budget
// (maxUnavailable) counts the custom resource's Scale as kube's disruption controller does (getScaleController), so
// `kubectl scale` of the custom resource moves expectedPods and the allowed disruptions, and an eviction is let
// through exactly when the budget allows it.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const V = '1.33'
const GROUP = `pdbfleet${Date.now().toString(36)}.example.com`
const FLEETS = `fleets.${GROUP}`
const ns = uniqueNs('pdb-scale')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: FLEETS },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'fleets', kind: 'Fleet' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: {
          status: {},
          // The replicas live where the CRD says, not at spec.replicas: only the Scale finds them.
          scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
        },
      },
    ],
  },
}

async function waitFor(what, check, timeout = 60_000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await check()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

const budget = async () => (await api('GET', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/fleet`)).body
const summary = (s) => ({
  expectedPods: s.expectedPods,
  desiredHealthy: s.desiredHealthy,
  currentHealthy: s.currentHealthy,
  disruptionsAllowed: s.disruptionsAllowed,
  conditions: (s.conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason}`),
})
const evict = (name) =>
  api('POST', `/api/v1/namespaces/${ns}/pods/${name}/eviction`, {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace: ns },
  })

describe('PodDisruptionBudget over a custom scalable resource (kubectl)', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
    await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(CRD) })
    await kubectl(V, ['wait', '--for', 'condition=established', `crd/${FLEETS}`, '--timeout=30s'])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
    await kubectl(V, ['delete', 'crd', FLEETS, '--wait=false'], { allowFail: true })
  })

  it('maxUnavailable counts the Fleet’s Scale; kubectl scale moves it; an eviction goes through once allowed', async () => {
    await k(['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Fleet', metadata: { name: 'f' }, spec: { size: 4 } }),
    })
    const fleet = JSON.parse((await k(['get', FLEETS, 'f', '-o', 'json'])).stdout)
    const owner = { apiVersion: fleet.apiVersion, kind: 'Fleet', name: 'f', uid: fleet.metadata.uid, controller: true }
    const pods = ['f-0', 'f-1', 'f-2'].map((name) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: 'fleet' }, ownerReferences: [owner] },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
    }))
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'fleet' },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'fleet' } } },
    }
    await k(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...pods, pdb] }) })
    await k(['wait', '--for=condition=Ready', 'pod', '-l', 'app=fleet', '--timeout=60s'])

    // Four expected (the Fleet's spec.size through its Scale), three healthy, at most one unavailable.
    const first = await waitFor('the budget computed', async () => {
      const b = await budget()
      return b.status?.currentHealthy === 3 ? b : undefined
    })
    assert.deepEqual(summary(first.status), {
      expectedPods: 4,
      desiredHealthy: 3,
      currentHealthy: 3,
      disruptionsAllowed: 0,
      conditions: ['DisruptionAllowed=False/InsufficientPods'],
    })
    const t = parseTable((await k(['get', 'pdb', 'fleet'])).stdout)
    assert.deepEqual(t.rows[0].slice(0, 4), ['fleet', 'N/A', '1', '0'])
    const refused = await evict('f-0')
    assert.equal(refused.status, 429)
    assert.equal(
      refused.body.details.causes[0].message,
      'The disruption budget fleet needs 3 healthy pods and has 3 currently',
    )

    // Scaling the Fleet through /scale moves the denominator.
    const scaled = await k(['scale', FLEETS, 'f', '--replicas=3'])
    // kubectl names the resource by its singular.
    assert.equal(scaled.stdout, `fleet.${GROUP}/f scaled\n`)
    const second = await waitFor('the budget recomputed', async () => {
      const b = await budget()
      return b.status?.expectedPods === 3 ? b : undefined
    })
    assert.deepEqual(summary(second.status), {
      expectedPods: 3,
      desiredHealthy: 2,
      currentHealthy: 3,
      disruptionsAllowed: 1,
      conditions: ['DisruptionAllowed=True/SufficientPods'],
    })
    const allowed = await evict('f-0')
    assert.equal(allowed.status, 201, JSON.stringify(allowed.body))
    await waitFor('the evicted pod gone', async () =>
      (await api('GET', `/api/v1/namespaces/${ns}/pods/f-0`)).status === 404 ? true : undefined,
    )
    const spent = await waitFor('the budget after the eviction', async () => {
      const b = await budget()
      return b.status?.currentHealthy === 2 ? b : undefined
    })
    assert.equal(spent.status.disruptionsAllowed, 0)
  })
})
