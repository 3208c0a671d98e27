// kubectl against the scheduler's capacity: a node whose room is taken by Completed Job pods takes the Job's next pods
// (Succeeded and Failed pods hold no room, as kube's scheduler watches only non-terminal pods).
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const node = `tiny-${Date.now().toString(36)}`
const TAINT = 'kubeflare.test/tiny'

describe('kubectl: a node full of Completed pods', () => {
  const ns = uniqueNs('sched')
  const k = (args, opts) => kubectl('1.33', ['-n', ns, ...args], opts)

  after(async () => {
    await kubectl('1.33', ['delete', 'namespace', ns, '--wait=false'], { allowFail: true, timeout: 20_000 })
    await kubectl('1.33', ['delete', 'node', node, '--wait=false'], { allowFail: true, timeout: 20_000 })
  })

  it('takes the next pods of a Job: wait --for=condition=complete, all three Completed on the one-pod node', async () => {
    // A virtual node with room for one pod, tainted so that only this test's pods go there.
    const nodeYaml = toYaml({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: node,
        labels: { 'kubernetes.io/hostname': node },
        annotations: { 'kubeflare.dev/virtual-node': 'true' },
      },
      spec: { podCIDR: '10.251.9.0/24', taints: [{ key: TAINT, effect: 'NoSchedule' }] },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        allocatable: { cpu: '1', memory: '1Gi', pods: '1' },
        capacity: { cpu: '1', memory: '1Gi', pods: '1' },
        addresses: [{ type: 'InternalIP', address: '10.0.99.9' }],
      },
    })
    assert.match((await kubectl('1.33', ['create', '-f', '-'], { input: nodeYaml })).stdout, /created/)
    await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
    const jobYaml = toYaml({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'fill' },
      spec: {
        completions: 3,
        parallelism: 3,
        template: {
          spec: {
            restartPolicy: 'Never',
            nodeSelector: { 'kubernetes.io/hostname': node },
            tolerations: [{ key: TAINT, operator: 'Exists', effect: 'NoSchedule' }],
            containers: [{ name: 'work', image: 'busybox', command: ['sh', '-c', 'echo done'] }],
          },
        },
      },
    })
    assert.match((await k(['create', '-f', '-'], { input: jobYaml })).stdout, /job.batch\/fill created/)
    const waited = await k(['wait', '--for=condition=complete', 'job/fill', '--timeout=60s'], { timeout: 70_000 })
    assert.match(waited.stdout, /job.batch\/fill condition met/)
    const t = parseTable((await k(['get', 'pods', '-o', 'wide'])).stdout)
    assert.equal(t.rows.length, 3)
    const at = (name) => t.header.indexOf(name)
    for (const row of t.rows) {
      assert.equal(row[at('STATUS')], 'Completed')
      assert.equal(row[at('NODE')], node)
    }
  })
})
