// kube's serviceaccounts controller: every namespace has a `default` ServiceAccount, created when the namespace is
// active and again whenever someone deletes it.
import type { Controller, ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'

const DEFAULT = 'default'
/** kube-controller-manager's serviceaccounts controller writes under this manager. */
const MANAGER = 'kube-controller-manager'

export class ServiceAccountController implements Controller {
  readonly name = 'serviceaccounts'
  private running: Promise<void> | null = null
  /**
   * `default` was seen since the last commit that deleted it: every pod create asks, and reading the object each time
   * cost a few percent of a create's CPU. Commits replayed at wake-up reach onCommitted too.
   */
  private present = false

  constructor(private readonly active: () => boolean) {}

  /** Creates `default` unless it exists (or the namespace is not active); one attempt at a time. */
  ensure(host: ControllerHost): Promise<void> {
    // Every pod create asks: the common answer costs nothing, the first one read.
    if (this.present) return Promise.resolve()
    if (!this.running && host.get('serviceaccounts', DEFAULT)) {
      this.present = true
      return Promise.resolve()
    }
    this.running ??= this.create(host).finally(() => {
      this.running = null
    })
    return this.running
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    if (entries.some((e) => e.resource === 'serviceaccounts' && e.name === DEFAULT && e.type === 'DELETED')) {
      this.present = false
      await this.ensure(host)
    }
  }

  async resync(host: ControllerHost): Promise<void> {
    await this.ensure(host)
  }

  private async create(host: ControllerHost) {
    if (!this.active() || host.get('serviceaccounts', DEFAULT)) return
    const r = await host.create(
      'serviceaccounts',
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT } },
      { fieldManager: MANAGER },
    )
    // 409: it appeared meanwhile; 403/404: the namespace is going or gone. Neither needs retrying.
    if (!r.ok && ![403, 404, 409].includes(r.status.code))
      console.error('serviceaccounts controller: creating default failed', r.status.message)
  }
}
