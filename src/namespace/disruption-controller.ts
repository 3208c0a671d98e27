// The disruption controller of one namespace: keeps every PodDisruptionBudget's status (currentHealthy,
// desiredHealthy, expectedPods, disruptionsAllowed, disruptedPods, observedGeneration, the DisruptionAllowed
// condition) as kube's does (src/registry/disruption.ts), written through poddisruptionbudgets/status. Budgets are
// synced when they change, when pods they select change, and when a workload's scale changes; an eviction's hold on
// a pod is dropped by an alarm when it runs out. A pod left marked DisruptionTarget for two minutes without being
// deleted gets the mark cleared (kube's stale pod disruption worker, which runs whether or not budgets exist). Driven by
// commits and alarms, never by polling.
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { deepEqual } from '../registry/deep-equal'
import { type BudgetSync, podsForBudget, syncBudget } from '../registry/disruption'
import { kinds } from '../registry/resources'
import type { LogEntry } from '../registry/store'
import type { PDBObject } from '../registry/strategies/pod-disruption-budget'
import { scaleOf, servesScale } from '../registry/scale-subresource'
import { staleDisruptionAt, withDisruptionCleared } from '../registry/stale-disruption'
import type { KubeObject } from '../schema/meta'
import { knowControllerKinds, scaleLookup } from './disruption-finders'

const PDBS = 'poddisruptionbudgets'
const COMPONENT = 'controllermanager'
const MANAGER = 'kube-controller-manager'

/** Whether a write moved the replicas of a kind that serves /scale (a custom resource's where its CRD keeps them). */
function scaleMoved(e: LogEntry): boolean {
  const def = kinds.byPlural(e.resource)
  if (!def || !servesScale(def)) return false
  if (!e.prev) return true
  const replicas = (o: KubeObject) => (scaleOf(o, def).spec as { replicas?: number }).replicas
  return replicas(e.prev) !== replicas(e.object)
}

/** Whether a budget's write changed what its status is computed from (its own status writes mostly do not). */
const budgetInputsChanged = (prev: PDBObject | null, next: PDBObject) =>
  !prev ||
  prev.metadata.generation !== next.metadata.generation ||
  !deepEqual(prev.spec, next.spec) ||
  !deepEqual(prev.status?.disruptedPods, next.status?.disruptedPods)

/** The selector as the generated String() of *metav1.LabelSelector prints it (kube's %v in the UnmanagedPods event). */
function selectorString(sel: NonNullable<PDBObject['spec']>['selector']) {
  if (!sel) return '<nil>'
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('')
  const exprs = (sel.matchExpressions ?? [])
    .map(
      (e) => `&LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('')
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`
}

export class DisruptionController implements Controller {
  readonly name = 'disruption'
  private running = new Map<string, Promise<void>>()
  private again = new Set<string>()
  /**
   * Whether the namespace holds a budget (null: not known). Known to hold none, a commit without a budget in it
   * needs no read: most namespaces have none, and this controller sees every commit.
   */
  private anyBudget: boolean | null = null

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    const marked = entries.filter((e) => e.resource === 'pods' && e.type !== 'DELETED')
    if (marked.length > 0) await this.clearStale(host, marked, Date.now())
    if (this.anyBudget === false && !entries.some((e) => e.resource === PDBS)) return
    const pdbs = host.all(PDBS).map((s) => s.object as PDBObject)
    this.anyBudget = pdbs.length > 0
    if (pdbs.length === 0) return
    const names = new Set<string>()
    for (const e of entries) {
      if (e.resource === PDBS) {
        if (e.type !== 'DELETED' && budgetInputsChanged(e.prev as PDBObject | null, e.object as PDBObject))
          names.add(e.name)
        continue
      }
      if (e.resource === 'pods') {
        for (const pdb of pdbs) {
          const pods = [e.object, e.prev].filter((p): p is KubeObject => !!p)
          if (podsForBudget(pdb, pods).length > 0) names.add(pdb.metadata.name!)
        }
        continue
      }
      // A controller's scale is the denominator of percentage and maxUnavailable budgets.
      if (scaleMoved(e)) for (const pdb of pdbs) names.add(pdb.metadata.name!)
    }
    await Promise.all([...names].map((n) => this.enqueue(host, n)))
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    // Marked pods are on the attention list (NamespacePolicy.needsAttention), so this reads only them.
    await this.clearStale(host, host.attending('pods'), now)
    const pdbs = host.all(PDBS)
    this.anyBudget = pdbs.length > 0
    await Promise.all(pdbs.map((s) => this.enqueue(host, s.object.metadata.name!)))
  }

  /**
   * syncStalePodDisruption for the given pods: a stale mark is cleared through pods/status, against the newest pod
   * (a delete or a new mark meanwhile leaves it); a mark not yet stale asks for a wake-up when it will be.
   */
  private async clearStale(host: ControllerHost, pods: readonly { object: KubeObject }[], now: number) {
    for (const { object } of pods) {
      const at = staleDisruptionAt(object)
      if (at === null) continue
      if (at > now) {
        await host.wakeAt(at)
        continue
      }
      const r = await host.update(
        'pods',
        object.metadata.name!,
        (current) => {
          const due = staleDisruptionAt(current)
          return due !== null && due <= Date.now() ? withDisruptionCleared(current, new Date()) : null
        },
        { subresource: 'status', fieldManager: MANAGER },
      )
      if (!r.ok && r.status.code !== 404)
        console.error(`disruption controller: clearing DisruptionTarget of ${object.metadata.name} failed`, r.status)
    }
  }

  private enqueue(host: ControllerHost, name: string): Promise<void> {
    const inFlight = this.running.get(name)
    if (inFlight) {
      this.again.add(name)
      return inFlight
    }
    const run = (async () => {
      try {
        do {
          this.again.delete(name)
          await this.sync(host, name).catch((e: unknown) =>
            console.error(`disruption controller: sync of ${name} failed`, e),
          )
        } while (this.again.has(name))
      } finally {
        this.running.delete(name)
      }
    })()
    this.running.set(name, run)
    return run
  }

  private async sync(host: ControllerHost, name: string): Promise<void> {
    const budget = host.get(PDBS, name)?.object as PDBObject | undefined
    if (!budget) return
    // Only maxUnavailable and a percentage minAvailable read the controllers' scale (getExpectedPodCount).
    const readsScale = budget.spec?.maxUnavailable !== undefined || typeof budget.spec?.minAvailable === 'string'
    if (readsScale)
      await knowControllerKinds(
        host,
        podsForBudget(
          budget,
          host.all('pods').map((s) => s.object),
        ),
      )
    const lookup = scaleLookup((resource, n) => host.get(resource, n)?.object)
    let computed: BudgetSync | null = null
    // Computed against the newest budget when the write is planned: an eviction's decrement is never overwritten.
    const r = await host.update(
      PDBS,
      name,
      (current) => {
        const pdb = current as PDBObject
        computed = syncBudget(
          pdb,
          host.all('pods').map((s) => s.object),
          lookup,
          new Date(),
        )
        if (!computed.status) return null
        pdb.status = computed.status
        return pdb
      },
      { subresource: 'status', fieldManager: MANAGER },
    )
    const result = computed as BudgetSync | null
    if (!result) return
    if (result.recheckAt !== null) await host.wakeAt(result.recheckAt)
    // Events only when the status moved, so a settled budget records nothing more.
    if (!r.ok || !r.value || r.value.unchanged) return
    const pdb = r.value.object as PDBObject
    if (result.error) {
      const message = `Failed to calculate the number of expected pods: ${result.error}`
      await recordEvent(host, pdb, {
        type: 'Warning',
        reason: 'CalculateExpectedPodCountFailed',
        message,
        component: COMPONENT,
      })
      return
    }
    if (
      podsForBudget(
        pdb,
        host.all('pods').map((s) => s.object),
      ).length === 0
    )
      await recordEvent(host, pdb, {
        type: 'Normal',
        reason: 'NoPods',
        message: 'No matching pods found',
        component: COMPONENT,
      })
    if (result.unmanaged.length > 0) {
      const message = `Pods selected by this PodDisruptionBudget (selector: ${selectorString(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`
      await recordEvent(host, pdb, { type: 'Warning', reason: 'UnmanagedPods', message, component: COMPONENT })
    }
    for (const podName of result.notDeleted) {
      const pod = host.get('pods', podName)?.object
      if (!pod) continue
      // kube's buildDisruptedPodMap formats the budget's namespace twice (pdb.Namespace, pdb.Namespace).
      const message = `Pod was expected by PDB ${host.scope}/${host.scope} to be deleted but it wasn't`
      await recordEvent(host, pod, { type: 'Warning', reason: 'NotDeleted', message, component: COMPONENT })
    }
  }
}
