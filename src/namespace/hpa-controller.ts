// kube's horizontal pod autoscaler controller for one namespace: each HorizontalPodAutoscaler is reconciled a resync
// period (15 s, kube's --horizontal-pod-autoscaler-sync-period) after it is first seen and every period after, as
// kube's work queue (a fixed-interval rate limiter) does: its target's /scale is read (Deployments, ReplicaSets,
// StatefulSets, ReplicationControllers, custom resources with a scale subresource), the replica bounds enforced
// through the target's scale subresource, the status written through horizontalpodautoscalers/status and kube's
// events recorded (src/registry/autoscaling/hpa-reconcile.ts decides). Driven by the host's alarm, never by polling.
import type { Controller, ControllerHost } from '../host/controller'
import { recordEvent } from '../host/record-event'
import { afterRescale, reconcileHpa, type TargetScale } from '../registry/autoscaling/hpa-reconcile'
import { deepEqual } from '../registry/deep-equal'
import { type LabelSelector, parseLabelSelector } from '../registry/label-selector'
import { resourceKey, type ResourceDef } from '../registry/resource'
import { kinds } from '../registry/resources'
import { applyScale, scaleOf, servesScale } from '../registry/scale-subresource'
import { statuses } from '../registry/status'
import type { LogEntry } from '../registry/store'
import type { HorizontalPodAutoscaler } from '../schema/autoscaling-v2'
import type { KubeObject } from '../schema/meta'
import { CONTROLLER_MANAGER } from './pod-owner'

const HPAS = 'horizontalpodautoscalers'
/** The event source kube's HPA controller records under. */
const COMPONENT = 'horizontal-pod-autoscaler'
/** kube-controller-manager's default --horizontal-pod-autoscaler-sync-period. */
const RESYNC_MS = 15_000

/** The target's Scale as kube's scale client reads it, with the row and resource key a rescale writes through. */
type TargetRead = TargetScale & { def?: ResourceDef; resource?: string }

/**
 * What kube's REST mapper and scale client answer for a scale target: `unexpected GroupVersion string`, `no matches
 * for kind`, a kind without /scale, the object not found, or its Scale.
 */
async function readTarget(host: ControllerHost, hpa: HorizontalPodAutoscaler): Promise<TargetRead> {
  const ref = hpa.spec!.scaleTargetRef
  const apiVersion = ref.apiVersion ?? ''
  const parts = apiVersion.split('/')
  if (parts.length > 2) return { error: `unexpected GroupVersion string: ${apiVersion}` }
  const group = parts.length === 2 ? (parts[0] ?? '') : ''
  // A custom kind may not be loaded in this isolate yet (the REST mapper's discovery).
  if (apiVersion) await host.knowKindOf(apiVersion, ref.kind)
  const rows = kinds.all().filter((d) => d.group === group && d.kind === ref.kind)
  if (!rows.length)
    return { error: `no matches for kind ${JSON.stringify(ref.kind)} in group ${JSON.stringify(group)}` }
  const def = rows.find((d) => d.storage !== false) ?? rows[0]!
  if (!def.namespaced || !servesScale(def)) return { error: 'the server could not find the requested resource' }
  const resource = resourceKey(def)
  const stored = host.get(resource, ref.name)
  if (!stored)
    return { error: statuses.notFound({ resource: def.plural, group: def.group || undefined }, ref.name).message ?? '' }
  const scale = scaleOf(stored.object, def) as unknown as { spec: { replicas?: number }; status: { selector?: string } }
  const selector = scale.status.selector ?? ''
  const parsed = selector ? parseLabelSelector(selector) : null
  return {
    replicas: scale.spec.replicas ?? 0,
    selector,
    ...(parsed && !parsed.ok ? { selectorError: parsed.message } : {}),
    def,
    resource,
  }
}

export class HorizontalPodAutoscalerController implements Controller {
  readonly name = 'horizontal-pod-autoscaler'
  /** When each HPA is next reconciled (ms since the epoch): kube's work queue of keys waiting out their period. */
  private readonly due = new Map<string, number>()
  /** Each HPA's target selector as of its last pass (kube's hpaSelectors), to tell when several take in one pod. */
  private readonly selectors = new Map<string, LabelSelector>()
  private readonly resyncMs: number
  private readonly clock: () => number

  constructor(opts: { resyncMs?: number; clock?: () => number } = {}) {
    this.resyncMs = opts.resyncMs ?? RESYNC_MS
    this.clock = opts.clock ?? Date.now
  }

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    let added = false
    for (const e of entries) {
      if (e.resource !== HPAS) continue
      if (e.type === 'DELETED') {
        this.due.delete(e.name)
        this.selectors.delete(e.name)
      }
      // An add or update is queued a period out; one already waiting keeps its time (AddRateLimited).
      else if (!this.due.has(e.name)) {
        this.due.set(e.name, this.clock() + this.resyncMs)
        added = true
      }
    }
    if (added) await this.wake(host)
  }

  async resync(host: ControllerHost, now: number): Promise<void> {
    // HPAs this controller has not seen (a new isolate): queued a period out, as an informer's initial list is.
    for (const s of host.all(HPAS)) {
      const name = s.object.metadata.name!
      if (!this.due.has(name)) this.due.set(name, now + this.resyncMs)
    }
    for (const [name, at] of [...this.due]) {
      if (at > now) continue
      if (!host.get(HPAS, name)) {
        this.due.delete(name)
        continue
      }
      this.due.set(name, now + this.resyncMs)
      await this.reconcile(host, name, now).catch((e: unknown) => console.error(`hpa ${host.scope}/${name}`, e))
    }
    await this.wake(host)
  }

  private async wake(host: ControllerHost): Promise<void> {
    if (this.due.size) await host.wakeAt(Math.min(...this.due.values()))
  }

  /**
   * validateAndParseSelector's last check: the pods this HPA's selector takes in must be controlled by it alone. Only
   * a selector that parses and a target in its bounds get there; HPAs are known by their last pass's selector.
   */
  private checkAmbiguity(host: ControllerHost, name: string, target: Extract<TargetRead, { replicas: number }>) {
    if (!target.selector || target.selectorError) return
    const parsed = parseLabelSelector(target.selector)
    if (!parsed.ok) return
    this.selectors.set(name, parsed.selector)
    const others = [...this.selectors].filter(([n]) => n !== name && host.get(HPAS, n))
    if (!others.length) return
    const controlling = new Set<string>()
    for (const pod of host.labelsOf('pods')) {
      if (!parsed.selector.matches(pod.labels)) continue
      controlling.add(name)
      for (const [other, sel] of others) if (sel.matches(pod.labels)) controlling.add(other)
    }
    if (controlling.size > 1) target.ambiguous = [...controlling].sort()
  }

  /** One pass of reconcileAutoscaler over the HPA as stored now. */
  private async reconcile(host: ControllerHost, name: string, nowMs: number): Promise<void> {
    const stored = host.get(HPAS, name)
    if (!stored) return
    const hpa = stored.object as HorizontalPodAutoscaler
    const now = new Date(nowMs)
    const target: TargetRead = await readTarget(host, hpa)
    if (!('error' in target)) this.checkAmbiguity(host, name, target)
    let pass = reconcileHpa(hpa, target, now)
    if (pass.rescale && target.def && target.resource && !('error' in target)) {
      const { def, resource } = target
      const replicas = pass.rescale.replicas
      const ref = hpa.spec!.scaleTargetRef
      const scale = { metadata: { name: ref.name }, spec: { replicas } } as KubeObject
      const r = await host.update(
        resource,
        ref.name,
        (current) => {
          const next = applyScale(def, current, 0, scale, ref.name)
          return next.ok ? next.value : null
        },
        { subresource: 'scale', fieldManager: CONTROLLER_MANAGER },
      )
      pass = afterRescale(hpa, pass, r.ok ? null : (r.status.message ?? 'unknown error'), target.replicas, now)
    }
    for (const e of pass.events) await recordEvent(host, stored.object, { ...e, component: COMPONENT })
    const uid = stored.object.metadata.uid
    const r = await host.update(
      HPAS,
      name,
      (current) => {
        if (current.metadata.uid !== uid || deepEqual(current.status, pass.status)) return null
        return { ...current, status: pass.status } as KubeObject
      },
      { subresource: 'status', fieldManager: CONTROLLER_MANAGER },
    )
    if (!r.ok && r.status.code !== 404) console.error(`hpa ${host.scope}/${name}: status`, r.status.message)
  }
}
