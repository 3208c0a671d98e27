// The workloads a ServiceAccount just created may unblock. ServiceAccount admission refuses a pod whose ServiceAccount
// does not exist (src/registry/strategies/pod/service-account-admission.ts); kube's controllers try such creates again
// with a backoff, so a Deployment applied before its ServiceAccount gets its pods once it exists. Here the controllers
// sync the owners whose pod template names a ServiceAccount as it is created.
import type { ControllerHost } from '../host/controller'
import type { LogEntry } from '../registry/store'

/** What a workload's pod template says of its ServiceAccount. */
type Templated = { spec?: { template?: { spec?: { serviceAccountName?: string; serviceAccount?: string } } } }

/** The names of the `resource` objects whose pod template runs as a ServiceAccount these entries create. */
export function ownersNamingNewServiceAccounts(
  entries: readonly LogEntry[],
  host: ControllerHost,
  resource: string,
): string[] {
  const created = new Set(
    entries.filter((e) => e.resource === 'serviceaccounts' && e.type === 'ADDED').map((e) => e.name),
  )
  if (created.size === 0) return []
  return host
    .all(resource)
    .filter(({ object }) => {
      const spec = (object as Templated).spec?.template?.spec
      return created.has(spec?.serviceAccountName || spec?.serviceAccount || 'default')
    })
    .map(({ object }) => object.metadata.name!)
}
