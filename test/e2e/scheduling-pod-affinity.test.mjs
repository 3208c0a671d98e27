// kube-scheduler's InterPodAffinity through real clients: a Deployment from kubectl whose pods repel each other by
// hostname gets one pod per virtual node, `kubectl get pods` shows the one too many Pending, and its FailedScheduling
// event carries kube's message; scaled down, nothing waits. A pod spread over a topology key no node has waits with
// PodTopologySpread's message. @kubernetes/client-node creates a pod with affinity to a placed pod and reads where it
// went. The python client creates a pod with a ScheduleAnyway constraint, which kube's spread score sends away from
// the node holding its peers (kubectl placed them, and a heavy pod on the other node). Pods kubectl deletes with a
// grace period stop counting for a DoNotSchedule constraint while they terminate.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node'
import { api, kubectl, parseTable, pythonChecks, uniqueNs, waitFor } from './helpers.mjs'

const V = '1.33'
const ns = uniqueNs('affinity')
const k = (args, opts) => kubectl(V, ['-n', ns, ...args], opts)

const HOSTNAME = 'kubernetes.io/hostname'

/** kubectl's table as objects keyed by column (parseTable gives a header and rows). */
const tableOf = (stdout) => {
  const { header, rows } = parseTable(stdout)
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])))
}

describe('pod affinity and spread (kubectl, client-node, python)', () => {
  let n = 0
  before(async () => {
    n = (await api('GET', '/api/v1/nodes')).body.items.filter(
      (node) => node.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true',
    ).length
    await kubectl(V, ['create', 'namespace', ns])
  })
  after(async () => {
    await kubectl(V, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
  })

  it('a Deployment repelling itself by hostname: one pod per node, the one too many Pending with kube’s message', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'spread', namespace: ns },
      spec: {
        replicas: n + 1,
        selector: { matchLabels: { app: 'spread' } },
        template: {
          metadata: { labels: { app: 'spread' } },
          spec: {
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { labelSelector: { matchLabels: { app: 'spread' } }, topologyKey: HOSTNAME },
                ],
              },
            },
            containers: [{ name: 'web', image: 'nginx:1.25' }],
          },
        },
      },
    }
    await k(['apply', '-f', '-'], { input: JSON.stringify(deployment) })
    const rows = await waitFor('one pod Pending, the rest Running', async () => {
      const table = tableOf((await k(['get', 'pods', '-o', 'wide'])).stdout)
      const running = table.filter((r) => r.STATUS === 'Running')
      const pending = table.filter((r) => r.STATUS === 'Pending')
      return running.length === n && pending.length === 1 ? table : undefined
    })
    const nodes = rows.filter((r) => r.STATUS === 'Running').map((r) => r.NODE)
    assert.equal(new Set(nodes).size, n, JSON.stringify(rows))
    const pending = rows.find((r) => r.STATUS === 'Pending')
    assert.equal(pending.NODE, '<none>')
    const field = `reason=FailedScheduling,involvedObject.name=${pending.NAME}`
    const message = await waitFor('FailedScheduling', async () => {
      return (await k(['get', 'events', '--field-selector', field, '-o', 'jsonpath={.items[0].message}'])).stdout
    })
    assert.equal(
      message,
      `0/${n} nodes are available: ${n} node(s) didn't match pod anti-affinity rules. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`,
    )
    await k(['scale', 'deployment/spread', `--replicas=${n}`])
    await k(['rollout', 'status', 'deployment/spread', '--timeout=60s'])
    const after = tableOf((await k(['get', 'pods'])).stdout)
    assert.equal(after.filter((r) => r.STATUS === 'Pending').length, 0, JSON.stringify(after))
  })

  it('kubectl: a pod spread by a topology key no node has waits with kube’s message', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'zoned', namespace: ns, labels: { app: 'zoned' } },
      spec: {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { app: 'zoned' } },
          },
        ],
        containers: [{ name: 'web', image: 'nginx:1.25' }],
      },
    }
    await k(['apply', '-f', '-'], { input: JSON.stringify(pod) })
    const field = 'reason=FailedScheduling,involvedObject.name=zoned'
    const message = await waitFor('FailedScheduling', async () => {
      return (await k(['get', 'events', '--field-selector', field, '-o', 'jsonpath={.items[0].message}'])).stdout
    })
    assert.equal(
      message,
      `0/${n} nodes are available: ${n} node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`,
    )
  })

  it('client-node: a pod with required affinity to a placed pod goes to its node', async () => {
    const kc = new KubeConfig()
    kc.loadFromFile(process.env.KUBECONFIG)
    const core = kc.makeApiClient(CoreV1Api)
    const pod = (name, labels, affinity) => ({
      metadata: { name, labels },
      spec: { ...(affinity ? { affinity } : {}), containers: [{ name: 'c', image: 'nginx:1.25' }] },
    })
    await core.createNamespacedPod({ namespace: ns, body: pod('peer', { role: 'peer' }) })
    const nodeOf = (name) =>
      waitFor(`${name} bound`, async () => (await core.readNamespacedPod({ name, namespace: ns })).spec?.nodeName)
    const peerNode = await nodeOf('peer')
    const affinity = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { role: 'peer' } }, topologyKey: HOSTNAME },
        ],
      },
    }
    await core.createNamespacedPod({ namespace: ns, body: pod('follower', {}, affinity) })
    assert.equal(await nodeOf('follower'), peerNode)
  })

  it('python: a ScheduleAnyway constraint sends a pod away from the node holding its peers', async () => {
    const virtual = (await api('GET', '/api/v1/nodes')).body.items
      .filter((node) => node.metadata.annotations?.['kubeflare.dev/virtual-node'] === 'true')
      .map((node) => node.metadata.name)
      .sort()
    const [crowded, other] = virtual
    const pinned = (name, labels, node, requests) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns, labels },
      spec: {
        nodeName: node,
        containers: [{ name: 'c', image: 'nginx:1.25', ...(requests ? { resources: { requests } } : {}) }],
      },
    })
    // The resource score alone would prefer the crowded node: the other runs a pod holding half its cpu and memory.
    const items = [
      pinned('soft-1', { app: 'soft' }, crowded),
      pinned('soft-2', { app: 'soft' }, crowded),
      pinned('heavy', { app: 'heavy' }, other, { cpu: '2', memory: '4Gi' }),
    ]
    await k(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) })
    const checks = pythonChecks('spread_score.py', [ns, crowded, other])
    assert.deepEqual(checks.placed, { check: 'placed', node: other, when: 'ScheduleAnyway' })
  })

  it('kubectl: pods deleted with a grace period no longer count for a DoNotSchedule constraint', async () => {
    // A node no kubelet runs: pods bound to it stay, and once deleted with a grace period they stay terminating.
    const real = `${ns}-real`
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: real, labels: { [HOSTNAME]: real } } }
    await kubectl(V, ['apply', '-f', '-'], { input: JSON.stringify(node) })
    try {
      const bound = (name) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: ns, labels: { app: 'going' } },
        spec: { nodeName: real, containers: [{ name: 'c', image: 'nginx:1.25' }] },
      })
      const items = [bound('going-1'), bound('going-2')]
      await k(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) })
      const waiting = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'after-them', namespace: ns, labels: { app: 'going' } },
        spec: {
          nodeSelector: { [HOSTNAME]: real },
          // A node that never reported Ready carries kube's not-ready taint.
          tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: HOSTNAME,
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'going' } },
              nodeAffinityPolicy: 'Ignore',
            },
          ],
          containers: [{ name: 'c', image: 'nginx:1.25' }],
        },
      }
      await k(['apply', '-f', '-'], { input: JSON.stringify(waiting) })
      const field = 'reason=FailedScheduling,involvedObject.name=after-them'
      const message = await waitFor('FailedScheduling', async () => {
        return (await k(['get', 'events', '--field-selector', field, '-o', 'jsonpath={.items[0].message}'])).stdout
      })
      assert.match(message, /1 node\(s\) didn't match pod topology spread constraints/)
      await k(['delete', 'pod', 'going-1', 'going-2', '--grace-period=300', '--wait=false'])
      const placed = await waitFor('after-them bound', async () => {
        return (await k(['get', 'pod', 'after-them', '-o', 'jsonpath={.spec.nodeName}'])).stdout || undefined
      })
      assert.equal(placed, real)
      const terminating = (await k(['get', 'pod', 'going-1', '-o', 'jsonpath={.metadata.deletionTimestamp}'])).stdout
      assert.notEqual(terminating, '')
    } finally {
      await kubectl(V, ['delete', 'node', real, '--wait=false'], { allowFail: true })
    }
  })
})
