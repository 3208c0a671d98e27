// The simulated kubelet after a restart of its namespace object: its address book is empty, so every pod due to start
// needs its address from the cluster object. A wake-up steps them all at once; the questions must not go out all at
// once (one call per pod in flight together), but in bounded batches, one call at a time.
import { env, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ClusterApi, PodAddresses } from '../../src/cluster/cluster-api'
import type { HostPolicy } from '../../src/host/host-policy'
import { KubeletController } from '../../src/namespace/kubelet-controller'
import { PodAddressBook } from '../../src/namespace/pod-address-book'
import { PodLogStore } from '../../src/namespace/pod-log-store'
import { podKey } from '../../src/namespace/schedule-request'
import { podNeedsAttention } from '../../src/registry/pod-lifecycle'
import { memoryHost } from '../support/memory-host'

type Obj = Record<string, any>

const policy: HostPolicy = {
  admitCreate: async () => null,
  admitCreateNow: () => null,
  needsAttention: (resource, obj) => resource === 'pods' && podNeedsAttention(obj as Obj),
}

const PODS = 600

describe('the simulated kubelet asking for pod addresses after a restart', () => {
  it('asks in batches, one call at a time, and starts every pod with its own address', async () => {
    const stub = env.NAMESPACES.get(env.NAMESPACES.idFromName('kubelet-pod-ips-test'))
    await runInDurableObject(stub, async (_instance, state) => {
      const { host } = memoryHost({ policy })
      const view = host.controllerView
      for (let i = 0; i < PODS; i++) {
        const created = await host.create('pods', {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `p${i}` },
          spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] },
        })
        expect(created.ok).toBe(true)
      }
      const addressOf = (key: string): PodAddresses => {
        const n = Number(/\/p(\d+)\//.exec(key)![1])
        return { podIP: `10.244.${n >> 8}.${n & 255}`, hostIP: '10.0.0.11' }
      }
      let inFlight = 0
      let most = 0
      let calls = 0
      const call = async <T>(answer: () => T): Promise<T> => {
        calls++
        most = Math.max(most, ++inFlight)
        await new Promise((r) => setTimeout(r, 1))
        inFlight--
        return answer()
      }
      const api = {
        nodeFacts: async (name: string) => ({
          name,
          virtual: true,
          hostIP: '10.0.0.11',
          podCIDR: '10.244.0.0/16',
          ready: true,
        }),
        admitPods: (reqs: { podKey: string }[]) =>
          call(() => reqs.map(({ podKey }) => ({ addresses: addressOf(podKey) }))),
      }
      const kubelet = new KubeletController({
        cluster: () => api as unknown as ClusterApi,
        addresses: new PodAddressBook(),
        startDelayMs: 0,
        stopDelayMs: 0,
        logs: new PodLogStore(state.storage.sql),
        onLog: () => undefined,
        onPodGone: () => undefined,
        onRunEnded: () => undefined,
      })
      await kubelet.resync(view, Date.now())

      expect(most).toBe(1)
      expect(calls).toBeLessThanOrEqual(Math.ceil(PODS / 256) + 1)
      for (let i = 0; i < PODS; i++) {
        const pod = host.objects.get('pods', `p${i}`)!.object
        expect((pod as Obj).status.phase).toBe('Running')
        expect((pod as Obj).status.podIP).toBe(addressOf(podKey(pod)).podIP)
      }
    })
  })
})
