// Succeeded and Failed pods hold no room on their node: kube's scheduler watches pods with the field selector
// `status.phase!=Succeeded,status.phase!=Failed`, so a pod turning terminal leaves its cache as if deleted, and pods
// waiting for that room are tried again at once. Here a virtual node with room for two pods is filled by Completed
// Job pods, and pending pods (the Job's next ones, then a pod of another namespace) take their places.
import { afterAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { makeNamespace, req, waitFor } from '../helpers'

type Obj = Record<string, any>

const node = `tiny-${Date.now().toString(36)}`
const TAINT = 'kubeflare.test/tiny'
// Only pods that tolerate the taint and select the node go there; nobody else's pods take its room.
const placement = {
  nodeSelector: { 'kubernetes.io/hostname': node },
  tolerations: [{ key: TAINT, operator: 'Exists', effect: 'NoSchedule' }],
}

afterAll(async () => {
  await req('DELETE', `/api/v1/nodes/${node}`)
})

const pods = async (ns: string): Promise<Obj[]> =>
  (await req('GET', `/api/v1/namespaces/${ns}/pods`)).json.items as Obj[]

describe('a node full of Completed pods', () => {
  it('takes new pods: a terminal pod gives back its cpu, memory and pod count', async () => {
    const mk = await req('POST', '/api/v1/nodes', {
      metadata: {
        name: node,
        labels: { 'kubernetes.io/hostname': node },
        annotations: { 'kubeflare.dev/virtual-node': 'true' },
      },
      spec: { podCIDR: '10.251.7.0/24', taints: [{ key: TAINT, effect: 'NoSchedule' }] },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        // Room for two pods of 1 CPU: the pod count and the cpu both run out.
        allocatable: { cpu: '2', memory: '1Gi', pods: '2' },
        capacity: { cpu: '2', memory: '1Gi', pods: '2' },
        addresses: [{ type: 'InternalIP', address: '10.0.99.7' }],
      },
    })
    expect(mk.status, mk.text).toBe(201)
    const ns = await makeNamespace('terminal')
    const job = await req('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
      metadata: { name: 'fill' },
      spec: {
        completions: 4,
        parallelism: 4,
        template: {
          spec: {
            ...placement,
            restartPolicy: 'Never',
            containers: [
              {
                name: 'main',
                image: 'busybox',
                command: ['true'],
                resources: { requests: { cpu: '1', memory: '256Mi' } },
              },
            ],
          },
        },
      },
    })
    expect(job.status, job.text).toBe(201)
    // Four pods at once on a node with room for two: two wait, and take the room the first two leave on completing.
    const done = await waitFor(
      'the Job to complete all four',
      async () => {
        const j = (await req('GET', `/apis/batch/v1/namespaces/${ns}/jobs/fill`)).json as Obj
        return j.status?.succeeded === 4 ? j : undefined
      },
      20_000,
    )
    expect(done.status.succeeded).toBe(4)
    const all = await pods(ns)
    expect(all.length).toBe(4)
    for (const p of all) {
      expect(p.spec.nodeName).toBe(node)
      expect(p.status.phase).toBe('Succeeded')
    }

    // The node still holds four Completed pods, and none of them counts: a pod of another namespace fits.
    const other = await makeNamespace('terminal')
    const late = await req('POST', `/api/v1/namespaces/${other}/pods`, {
      metadata: { name: 'late' },
      spec: {
        ...placement,
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '2', memory: '1Gi' } } }],
      },
    })
    expect(late.status, late.text).toBe(201)
    const bound = await waitFor('the late pod to be bound', async () => {
      const p = (await req('GET', `/api/v1/namespaces/${other}/pods/late`)).json as Obj
      return p.spec?.nodeName ? p : undefined
    })
    expect(bound.spec.nodeName).toBe(node)

    // The cluster object's ledger: only the late pod counts on the node (its cpu is taken, one pod slot is not).
    const cluster = env.CLUSTER.getByName('cluster')
    const probe = `${other}/probe/${crypto.randomUUID()}`
    const placed = await cluster.schedulePod({
      podKey: probe,
      ns: other,
      spec: { ...placement, containers: [{ name: 'c', image: 'nginx' }] } as never,
    })
    expect(placed.ok).toBe(true)
    await cluster.releasePod(probe)
    await req('DELETE', `/api/v1/namespaces/${other}/pods/late?gracePeriodSeconds=0`)
  })
})
