// POST pods/{name}/eviction, planned in the pod's namespace object as kube's EvictionREST does it: a pod that is
// finished, pending or already being deleted is deleted outright; otherwise the one PodDisruptionBudget that selects
// it must allow a disruption, taken from its status against the newest state (checkAndDecrement, so two evictions
// cannot both take the last one) and recorded in its disruptedPods, before the pod is deleted. Refusals are kube's:
// 429 "Cannot evict pod as it would violate the pod's disruption budget." with the DisruptionBudget cause (kubectl
// drain waits and retries on it), 500 for a pod under several budgets.
import type { ControllerHost } from '../host/controller'
import { budgetBeingProcessed, budgetsForPod, checkAndDecrement, isPodReady } from '../registry/disruption'
import { fail, ok, type Result, type Status, statuses } from '../registry/status'
import type { PDBObject } from '../registry/strategies/pod-disruption-budget'
import type { DeleteOptions, KubeObject } from '../schema/meta'

const PDBS = 'poddisruptionbudgets'
const MANAGER = 'kube-apiserver'

type Obj = Record<string, any>

const phaseOf = (pod: KubeObject) => (pod as Obj).status?.phase as string | undefined
const terminal = (pod: KubeObject) => phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed'
/** canIgnorePDB: the pod is finished, has not started, or is already going. */
const canIgnoreBudget = (pod: KubeObject) =>
  terminal(pod) || phaseOf(pod) === 'Pending' || pod.metadata.deletionTimestamp !== undefined
const rvUnset = (o: DeleteOptions) => o.preconditions?.resourceVersion === undefined

const withResourceVersion = (o: DeleteOptions, rv: number): DeleteOptions => ({
  ...o,
  preconditions: { ...(o.preconditions ?? {}), resourceVersion: String(rv) },
})

/**
 * The first half of kube's retry loop: a pod that is finished, pending or already being deleted is deleted at once,
 * decided against its newest state in the same write (so nothing can slip between the check and the delete); a pod a
 * budget guards answers 'guarded'.
 */
async function deleteIfBudgetIrrelevant(
  host: ControllerHost,
  name: string,
  options: DeleteOptions,
  dryRun: boolean,
): Promise<Result<Status> | 'guarded'> {
  if (!host.get('pods', name)) return fail(statuses.notFound({ resource: 'pods' }, name))
  let guarded = false
  const r = await host.reconcile(
    'pods',
    name,
    (current) => {
      if (!current) return { delete: options } // answered 404 by the delete itself
      guarded = !canIgnoreBudget(current)
      return guarded ? null : { delete: options }
    },
    { dryRun },
  )
  if (!r.ok) return fail(r.status)
  return guarded ? 'guarded' : ok(statuses.success(undefined, 201))
}

/** Evicts a pod; answers the Success Status kube answers (201), or the refusal. */
export async function evictPod(
  host: ControllerHost,
  name: string,
  options: DeleteOptions,
  dryRun: boolean,
): Promise<Result<Status>> {
  const found = await deleteIfBudgetIrrelevant(host, name, options, dryRun)
  if (found !== 'guarded') return found
  const stored = host.get('pods', name)
  if (!stored) return fail(statuses.notFound({ resource: 'pods' }, name))
  const pod = stored.object
  const remove = async (o: DeleteOptions) => {
    const r = await host.delete('pods', name, o, { dryRun })
    return r.ok ? ok(statuses.success(undefined, 201)) : fail<Status>(r.status)
  }
  const budgets = budgetsForPod(
    pod,
    host.all(PDBS).map((s) => s.object as PDBObject),
  )
  if (budgets.length > 1) {
    const s = statuses.internal('')
    s.message = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'
    delete s.reason
    delete s.details
    return fail(s)
  }
  let holdResourceVersion = false
  const pdb = budgets[0]
  if (pdb) {
    const st = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }
    // An unready pod does not count as healthy: evicting it takes nothing from the budget when the budget is met
    // (or its policy is AlwaysAllow); it is deleted only if it is still unready (the resourceVersion precondition).
    if (
      !isPodReady(pod) &&
      (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' ||
        (st.currentHealthy >= st.desiredHealthy && st.desiredHealthy > 0))
    ) {
      holdResourceVersion = true
    } else {
      let refused: Status | null = null
      const r = await host.update(
        PDBS,
        pdb.metadata.name!,
        (current) => {
          const decided = checkAndDecrement(current as PDBObject, name, dryRun, new Date())
          if ('refused' in decided) {
            refused = decided.refused
            return null
          }
          return decided.pdb
        },
        { subresource: 'status', fieldManager: MANAGER },
      )
      if (refused) return fail(refused)
      if (!r.ok) return fail(r.status)
    }
  }
  const o = holdResourceVersion && rvUnset(options) ? withResourceVersion(options, stored.rv) : options
  const deleted = await remove(o)
  if (!deleted.ok && deleted.status.code === 409 && holdResourceVersion && rvUnset(options))
    return fail(budgetBeingProcessed(pdb!.metadata.name!))
  return deleted
}
