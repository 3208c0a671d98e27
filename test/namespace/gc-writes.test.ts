// The garbage collector's writes: a dependent it decided to delete is deleted only while its name still holds the object
// it looked at (kube's deleteObject sends a uid precondition), so one deleted and made again meanwhile is left alone.
import { describe, expect, it } from 'vitest'
import type { ClusterOwnerRef, OwnerMeta } from '../../src/cluster/cluster-api'
import type { Controller, ControllerHost } from '../../src/host/controller'
import type { LogEntry } from '../../src/registry/store'
import type { KubeObject } from '../../src/schema/meta'
import { GarbageCollector } from '../../src/namespace/garbage-collector'
import { memoryHost } from '../support/memory-host'

/** A collector whose work on commits can be awaited to its end. */
class AwaitedCollector extends GarbageCollector {
  private readonly running: Promise<void>[] = []
  override onCommitted(entries: readonly LogEntry[], host: ControllerHost) {
    const work = super.onCommitted(entries, host)
    this.running.push(work)
    return work
  }
  /** Waits until every commit's work so far, and the work its writes caused, has finished. */
  async idle() {
    for (let seen = 0; seen < this.running.length; ) {
      seen = this.running.length
      await Promise.all(this.running)
    }
  }
}

describe('garbage collector deletes', () => {
  it('do not delete an object made again under the name while the owner was being looked up', async () => {
    let host: ReturnType<typeof memoryHost>['host'] | null = null
    let recreated = ''
    const links = {
      // While the collector asks after the dependent's cluster-scoped owner, the dependent is deleted and made again
      // without owners.
      clusterOwners: async (_ns: string, refs: ClusterOwnerRef[]): Promise<(OwnerMeta | null)[]> => {
        if (!recreated) {
          expect((await host!.delete('configmaps', 'dep')).ok).toBe(true)
          const again = await host!.create('configmaps', {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'dep' },
          })
          if (!again.ok) throw new Error(again.status.message)
          recreated = again.value.object.metadata.uid!
        }
        return refs.map(() => null)
      },
      clusterOwnersUnblocked: async () => {},
      awaitOwnerKinds: async () => {},
    }
    const gc = new AwaitedCollector({ cluster: links })
    host = memoryHost({ scope: 'ns', controllers: [gc] as Controller[] }).host
    const dep: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'dep',
        ownerReferences: [
          { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'missing', uid: 'u-missing' },
        ],
      },
    }
    expect((await host.create('configmaps', dep)).ok).toBe(true)
    await gc.idle()
    expect(recreated).not.toBe('')
    const kept = host.objects.get('configmaps', 'dep')?.object
    expect(kept?.metadata.uid).toBe(recreated)
    expect(kept?.metadata.deletionTimestamp).toBeUndefined()
  })
})
