// kube-scheduler's resource scores through real clients: kubectl makes two nodes of 4 cpu and 8Gi (status through
// `kubectl patch --subresource=status`) and binds one pod to each, one asking for 3Gi of memory, the other for 1 cpu and
// 2Gi. The python client then creates a pod asking for nothing, which NodeResourcesFit sends to the first (kube counts
// 100m and 200 MiB for it), and one asking for 100m and 200 MiB, which BalancedAllocation sends to the second. Then
// a Service and a two-replica Deployment from kubectl: kube's system default spreading (by the Service's and the
// ReplicaSet's selectors) puts the second replica on the other node, where the resource scores alone would not.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { kubectl, pythonChecks, uniqueNs, waitFor } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('scores')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)
const nodes = [`${ns}-a`, `${ns}-b`]

describe('resource scores (kubectl, python)', () => {
  before(async () => {
    await kubectl(V, ['create', 'namespace', ns])
    for (const name of nodes) {
      const node = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } } }
      await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(node) })
      const room = { cpu: '4', memory: '8Gi', pods: '110' }
      const status = JSON.stringify({ status: { capacity: room, allocatable: room } })
      await kubectl(V, ['patch', 'node', name, '--subresource=status', '--type=merge', '-p', status])
    }
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
    await kubectl(V, ['delete', 'node', ...nodes, '--wait=false'], { allowFail: true })
  })

  it('a best-effort pod goes where most is left; a pod that asks goes where cpu and memory stay balanced', async () => {
    const holder = (name, node, requests) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns },
      spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx:1.25', resources: { requests } }] },
    })
    const items = [
      holder('holder-a', nodes[0], { memory: '3Gi' }),
      holder('holder-b', nodes[1], { cpu: '1', memory: '2Gi' }),
    ]
    await k(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) })
    const checks = pythonChecks('resource_scores.py', [ns, ...nodes])
    // Fit: a 95 cpu, 60 memory -> 77; b 72 and 72 -> 72. Balanced (only for the pod that asks): a 81, b 99.
    assert.deepEqual(checks['best-effort'], { check: 'best-effort', node: nodes[0] })
    assert.deepEqual(checks.requesting, { check: 'requesting', node: nodes[1] })
  })

  it("a Deployment's replicas behind a Service spread over the nodes by kube's system default constraints", async () => {
    const labels = { app: 'spread-api' }
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'spread-api', namespace: ns },
      spec: { selector: labels, ports: [{ port: 80 }] },
    }
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'spread-api', namespace: ns },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [
                    { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: nodes }] },
                  ],
                },
              },
            },
            tolerations: [
              { key: 'node.kubernetes.io/not-ready', operator: 'Exists' },
              { key: 'node.kubernetes.io/unreachable', operator: 'Exists' },
            ],
            containers: [{ name: 'c', image: 'nginx:1.25' }],
          },
        },
      },
    }
    const items = [service, deployment]
    await k(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) })
    const placed = await waitFor('both replicas bound', async () => {
      const out = (await k(['get', 'pods', '-l', 'app=spread-api', '-o', 'jsonpath={.items[*].spec.nodeName}'])).stdout
      const bound = out.split(' ').filter(Boolean)
      return bound.length === 2 && bound
    })
    // The first goes by the resource scores (a: 74, b: 70); the second would too (71 to 70), but a now holds one
    // replica: spread a 66, b 100, weighed 2.
    assert.deepEqual([...placed].sort(), [...nodes].sort())
  })
})
