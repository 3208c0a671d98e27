// POST pods/{name}/eviction, planned in the pod's namespace object as kube's EvictionREST does it: a pod that is
// finished, pending or already being deleted is deleted outright; otherwise the one PodDisruptionBudget that selects
// it must allow a disruption, taken from its status against the newest state (checkAndDecrement, so two evictions
// cannot both take the last one) and recorded in its disruptedPods, before the pod is deleted. Either way the pod is
// marked DisruptionTarget (EvictionByEvictionAPI) just before its delete, as kube's addConditionAndDeletePod marks
// it (a Job's podFailurePolicy reads it). Refusals are kube's:
// 429 "Cannot evict pod as it would violate the pod's disruption budget." with the DisruptionBudget cause (kubectl
// drain waits and retries on it), 500 for a pod under several budgets.
import type { ControllerHost } from '../host/controller'
import { budgetBeingProcessed, budgetsForPod, checkAndDecrement, isPodReady } from '../registry/disruption'
import { fail, ok, type Result, type Status, statuses } from '../registry/status'
import type { PDBObject } from '../registry/strategies/pod-disruption-budget'
import { rfc3339 } from '../registry/time'
import { invalidOptions, validateDeleteOptions } from '../registry/validation/meta-options'
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

const withResourceVersion = (o: DeleteOptions, rv: number | string): DeleteOptions => ({
  ...o,
  preconditions: { ...(o.preconditions ?? {}), resourceVersion: String(rv) },
})

/** podutil.UpdatePodCondition: appended, or replaced in place keeping its transition time when the status holds. */
function withEvictingCondition(pod: KubeObject, now: Date): KubeObject {
  const p = pod as KubeObject & Obj
  const conditions = [...((p.status?.conditions ?? []) as Obj[])]
  const i = conditions.findIndex((c) => c.type === 'DisruptionTarget')
  const old = i >= 0 ? conditions[i] : undefined
  const next = {
    type: 'DisruptionTarget',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : rfc3339(now),
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
  }
  if (i >= 0) conditions[i] = next
  else conditions.push(next)
  return { ...p, status: { ...p.status, conditions } }
}

/**
 * addConditionAndDeletePod: the newest pod is checked against the delete's preconditions (kube's conflict wording)
 * and marked DisruptionTarget, then deleted, a resourceVersion precondition moved to the version the mark made. A dry
 * run only deletes (dry). `applies` re-checks against the newest pod that this path of the eviction still holds
 * ('declined': it does not, nothing was written).
 */
async function addConditionAndDelete(
  host: ControllerHost,
  name: string,
  options: DeleteOptions,
  dryRun: boolean,
  applies: (pod: KubeObject) => boolean = () => true,
): Promise<Result<Status> | 'declined'> {
  // rest.BeforeDelete would refuse these options after the mark: refused before it, so no mark is left behind.
  const invalid = validateDeleteOptions(options)
  if (invalid.length > 0) return fail(invalidOptions('DeleteOptions', invalid))
  let o = options
  if (!dryRun) {
    let refused: Status | null = null
    let declined = false
    const conflict = (why: string) => statuses.conflict({ resource: 'Pod' }, name, why)
    const r = await host.update(
      'pods',
      name,
      (current) => {
        if (!applies(current)) {
          declined = true
          return null
        }
        const { uid, resourceVersion } = options.preconditions ?? {}
        if (uid && uid !== current.metadata.uid) {
          refused = conflict(
            `the UID in the precondition (${uid}) does not match the UID in record (${current.metadata.uid}). The object might have been deleted and then recreated`,
          )
          return null
        }
        if (resourceVersion && resourceVersion !== current.metadata.resourceVersion) {
          refused = conflict(
            `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`,
          )
          return null
        }
        return withEvictingCondition(current, new Date())
      },
      // A write inside the eviction's storage, not through a handler: kube records no manager for it.
      { subresource: 'status' },
    )
    if (declined) return 'declined'
    if (refused) return fail(refused)
    if (!r.ok) return fail(r.status)
    if (!rvUnset(options) && r.value) o = withResourceVersion(options, r.value.object.metadata.resourceVersion!)
  }
  const deleted = await host.delete('pods', name, o, { dryRun })
  return deleted.ok ? ok(statuses.success(undefined, 201)) : fail<Status>(deleted.status)
}

/**
 * The first half of kube's retry loop: a pod that is finished, pending or already being deleted is marked and deleted
 * at once, decided against its newest state in the same write as the mark; a pod a budget guards answers 'guarded'.
 * A pod that may still become ready (not terminal, not deleting) is deleted only at the version the mark made
 * (kube's shouldEnforceResourceVersion); if it moved meanwhile, the decision is made again.
 */
async function deleteIfBudgetIrrelevant(
  host: ControllerHost,
  name: string,
  options: DeleteOptions,
  dryRun: boolean,
): Promise<Result<Status> | 'guarded'> {
  for (let attempt = 0; ; attempt++) {
    const stored = host.get('pods', name)
    if (!stored) return fail(statuses.notFound({ resource: 'pods' }, name))
    if (!canIgnoreBudget(stored.object)) return 'guarded'
    const enforce = !terminal(stored.object) && !stored.object.metadata.deletionTimestamp && rvUnset(options)
    const o = enforce ? withResourceVersion(options, stored.rv) : options
    const r = await addConditionAndDelete(host, name, o, dryRun, canIgnoreBudget)
    if (r === 'declined') return 'guarded'
    // Our own precondition lost a race with another write: look again (kube retries on the conflict).
    if (!r.ok && r.status.code === 409 && enforce && attempt < 4) continue
    return r
  }
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
    const r = await addConditionAndDelete(host, name, o, dryRun)
    return r === 'declined' ? fail<Status>(statuses.notFound({ resource: 'pods' }, name)) : r
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
