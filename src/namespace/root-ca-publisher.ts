// kube's root-ca-cert-publisher: every active namespace holds the `kube-root-ca.crt` ConfigMap, whose `ca.crt` is the
// cluster's root CA (KUBEFLARE_ROOT_CA: the local CA `npm start` makes for HTTPS), with kube's description annotation.
// It is created when the namespace becomes active, created again after a delete, and its data and annotation are
// put back after an edit, as kube's controller syncs them. Without a configured CA kube still publishes what it has
// (its client's CA data, empty when there is none): so do we, an empty ca.crt.
import type { Controller, ControllerHost, Desired } from '../host/controller'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'

const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt'
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description'
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the ' +
  'internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.'
/** kube-controller-manager's controllers write under this manager. */
const MANAGER = 'kube-controller-manager'

type ConfigMapLike = KubeObject & { data?: Record<string, string> }

export class RootCAPublisher implements Controller {
  readonly name = 'root-ca-cert-publisher'
  private running: Promise<void> | null = null

  constructor(
    private readonly rootCA: string,
    private readonly active: () => boolean,
  ) {}

  /** Brings the ConfigMap to what it must be (one attempt at a time). */
  ensure(host: ControllerHost): Promise<void> {
    this.running ??= this.sync(host).finally(() => {
      this.running = null
    })
    return this.running
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    if (entries.some((e) => e.resource === 'configmaps' && e.name === ROOT_CA_CONFIG_MAP)) await this.ensure(host)
  }

  async resync(host: ControllerHost): Promise<void> {
    await this.ensure(host)
  }

  /** What the publisher writes, decided against the newest state: syncNamespace. */
  private desired(current: KubeObject | null): Desired {
    const data = { 'ca.crt': this.rootCA }
    if (current === null) {
      return {
        create: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIG_MAP, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data,
        } as KubeObject,
      }
    }
    const cm = current as ConfigMapLike
    const same = Object.keys(cm.data ?? {}).length === 1 && cm.data?.['ca.crt'] === this.rootCA
    if (same && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return null
    // A deleting ConfigMap is left alone: it is re-created once it is gone.
    if (cm.metadata.deletionTimestamp) return null
    const next = structuredClone(cm)
    next.data = data
    next.metadata.annotations = { ...next.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION }
    return { update: next }
  }

  private async sync(host: ControllerHost) {
    if (!this.active()) return
    const r = await host.reconcile('configmaps', ROOT_CA_CONFIG_MAP, (c) => this.desired(c), { fieldManager: MANAGER })
    // 403/404: the namespace is going or gone; 409: it appeared meanwhile (the next commit brings us back). An
    // immutable copy someone made cannot be fixed (422), as in kube, which retries it for ever.
    if (!r.ok && ![403, 404, 409, 422].includes(r.status.code))
      console.error('root-ca-cert-publisher: syncing kube-root-ca.crt failed', r.status.message)
  }
}
