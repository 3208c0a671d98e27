// The objects a ServiceAccount token names, looked up for its authenticator (kube reads them from informer caches):
// the ServiceAccount, and the Pod or Node it is bound to. A found object is remembered for a second per isolate, so a
// controller's requests do not each cost a Durable Object call; a token of an object deleted elsewhere stops working
// within that second (at once through this isolate, whose writes of those resources drop what it remembered).
import type { LiveObject } from '../auth/service-account-token'
import type { Result } from '../registry/status'
import type { KubeObject } from '../schema/meta'

const REMEMBER_MS = 1000
const CAPACITY = 4096

interface Remembered {
  at: number
  object: LiveObject | null
}

const isolates = new WeakMap<object, Map<string, Remembered>>()

const live = (o: KubeObject): LiveObject => ({
  uid: o.metadata.uid ?? '',
  deletionTimestamp: o.metadata.deletionTimestamp ?? null,
})

export class LiveObjects {
  private readonly seen: Map<string, Remembered>

  constructor(private readonly env: Env) {
    let seen = isolates.get(env.NAMESPACES)
    if (!seen) isolates.set(env.NAMESPACES, (seen = new Map()))
    this.seen = seen
  }

  serviceAccount = (namespace: string, name: string) => this.find('serviceaccounts', namespace, name)
  pod = (namespace: string, name: string) => this.find('pods', namespace, name)
  node = (name: string) => this.find('nodes', '', name)

  /** A write of `resource` went through this isolate: forget what was remembered of that object (or of them all). */
  noteWrite(resource: string, namespace: string, name?: string) {
    if (name !== undefined) {
      this.seen.delete(`${resource}/${namespace}/${name}`)
      return
    }
    const prefix = `${resource}/${namespace}/`
    for (const key of [...this.seen.keys()]) if (key.startsWith(prefix)) this.seen.delete(key)
  }

  private async find(resource: string, namespace: string, name: string): Promise<LiveObject | null> {
    const key = `${resource}/${namespace}/${name}`
    const held = this.seen.get(key)
    const now = Date.now()
    if (held && held.at > now - REMEMBER_MS) return held.object
    const host = namespace === '' ? this.env.CLUSTER.getByName('cluster') : this.env.NAMESPACES.getByName(namespace)
    const got = (await host.get(resource, name)) as Result<KubeObject>
    const object = got.ok ? live(got.value) : null
    if (this.seen.size >= CAPACITY) this.seen.delete(this.seen.keys().next().value!)
    // Only objects that exist are remembered: a refusal is never cached, so a fresh object is usable at once.
    if (object) this.seen.set(key, { at: now, object })
    else this.seen.delete(key)
    return object
  }
}
