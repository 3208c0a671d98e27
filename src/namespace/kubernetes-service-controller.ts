// The `kubernetes` service of the `default` namespace, with its Endpoints and EndpointSlice: created when the
// namespace first needs them and re-created at once after someone deletes one (kube's bootstrap controller and
// endpoint reconciler repair them every few seconds). Runs only in the `default` namespace's Durable Object.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'
import {
  DEFAULT_APISERVER_ADDRESS,
  KUBERNETES_SERVICE,
  kubernetesEndpointSlice,
  kubernetesEndpoints,
  kubernetesService,
} from '../registry/bootstrap-objects'
import { firstServiceIP } from '../registry/ip-ranges'
import type { KubeObject } from '../schema/meta'

const RESOURCES = ['services', 'endpoints', 'endpointslices'] as const
/** kube-apiserver records its own writes under this manager. */
const MANAGER = 'kube-apiserver'

export class KubernetesServiceController implements Controller {
  readonly name = 'kubernetes-service'
  /** One repair at a time: a second trigger waits for it, then finds nothing missing. */
  private running: Promise<void> | null = null

  constructor(private readonly env: { SERVICE_CIDR?: string; APISERVER_ADDRESS?: string }) {}

  /** Resolves once all three objects exist (or a create failed and was logged; the next trigger retries). */
  ensure(host: ControllerHost): Promise<void> {
    this.running ??= this.repair(host).finally(() => {
      this.running = null
    })
    return this.running
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    if (
      entries.some(
        (e) =>
          e.type === 'DELETED' &&
          e.name === KUBERNETES_SERVICE &&
          (RESOURCES as readonly string[]).includes(e.resource),
      )
    ) {
      await this.ensure(host)
    }
  }

  async resync(host: ControllerHost): Promise<void> {
    await this.ensure(host)
  }

  private async repair(host: ControllerHost) {
    const address = this.env.APISERVER_ADDRESS || DEFAULT_APISERVER_ADDRESS
    const wanted: [string, KubeObject][] = [
      ['services', kubernetesService(firstServiceIP(this.env.SERVICE_CIDR))],
      ['endpoints', kubernetesEndpoints(address)],
      ['endpointslices', kubernetesEndpointSlice(address)],
    ]
    for (const [resource, body] of wanted) {
      if (host.get(resource, KUBERNETES_SERVICE)) continue
      const r = await host.create(resource, body, { fieldManager: MANAGER })
      // 409: someone (a client, a concurrent repair) made it first, which is as good.
      if (!r.ok && r.status.code !== 409)
        console.error(`bootstrap: creating ${resource}/${KUBERNETES_SERVICE} failed`, r.status.message)
    }
  }
}
