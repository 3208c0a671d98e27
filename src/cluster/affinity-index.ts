// What the InterPodAffinity filter needs of the pods on nodes (src/registry/pod-affinity.ts): each bound pod's
// namespace, node and labels, and the required anti-affinity terms of the few pods that have them. The node ledger
// keeps them in its pod_bindings rows (labels, anti_affinity) and tells this index of every bind, release and label
// change; each map is loaded from the table on first use. The labels of every bound pod are loaded only once a pod with
// affinity terms or spread constraints of its own is scheduled: most clusters never pay for them.
import { affinityTerms, type AffinityTerm, type PlacedPod } from '../registry/pod-affinity'

type Obj = Record<string, any>
type Labels = Record<string, string>
type AntiAffinityPod = PlacedPod & { anti: AffinityTerm[] }

/** A pod key's namespace (keys are `namespace/name/uid`). */
const nsOf = (podKey: string) => podKey.slice(0, podKey.indexOf('/'))

export class AffinityIndex {
  /** Bound pods by namespace, then pod key. */
  private placed: Map<string, Map<string, PlacedPod>> | null = null
  private withAnti: Map<string, AntiAffinityPod> | null = null

  constructor(private readonly sql: SqlStorage) {}

  /** Every bound pod (InterPodAffinity's terms may name any namespace). */
  *placedPods(): Iterable<PlacedPod> {
    for (const pods of this.loadedPlaced().values()) yield* pods.values()
  }

  /** The bound pods of one namespace (PodTopologySpread counts only the pod's own). */
  placedIn(ns: string): Iterable<PlacedPod> {
    return this.loadedPlaced().get(ns)?.values() ?? []
  }

  private loadedPlaced(): Map<string, Map<string, PlacedPod>> {
    if (this.placed) return this.placed
    this.placed = new Map()
    for (const r of this.sql
      .exec<{ pod_key: string; ns: string; node: string; labels: string | null }>(
        'SELECT pod_key, ns, node, labels FROM pod_bindings',
      )
      .toArray())
      this.place(r.pod_key, { ns: r.ns, node: r.node, labels: r.labels ? (JSON.parse(r.labels) as Labels) : {} })
    return this.placed
  }

  private place(podKey: string, pod: PlacedPod) {
    let pods = this.placed!.get(pod.ns)
    if (!pods) this.placed!.set(pod.ns, (pods = new Map()))
    pods.set(podKey, pod)
  }

  antiAffinityPods(): Iterable<AntiAffinityPod> {
    return this.loadedAnti().values()
  }

  private loadedAnti(): Map<string, AntiAffinityPod> {
    if (this.withAnti) return this.withAnti
    this.withAnti = new Map()
    for (const r of this.sql
      .exec<{ pod_key: string; ns: string; node: string; labels: string | null; anti_affinity: string }>(
        'SELECT pod_key, ns, node, labels, anti_affinity FROM pod_bindings WHERE anti_affinity IS NOT NULL',
      )
      .toArray())
      this.withAnti.set(r.pod_key, {
        ns: r.ns,
        node: r.node,
        labels: r.labels ? (JSON.parse(r.labels) as Labels) : {},
        anti: affinityTerms(r.ns, JSON.parse(r.anti_affinity) as Obj[]),
      })
    return this.withAnti
  }

  /** A binding was recorded (the row is written already). */
  bound(podKey: string, pod: PlacedPod, antiAffinity: readonly Obj[] | undefined) {
    if (this.placed) this.place(podKey, pod)
    if (antiAffinity?.length && this.withAnti)
      this.withAnti.set(podKey, { ...pod, anti: affinityTerms(pod.ns, antiAffinity) })
  }

  released(podKey: string) {
    const pods = this.placed?.get(nsOf(podKey))
    pods?.delete(podKey)
    if (pods?.size === 0) this.placed!.delete(nsOf(podKey))
    this.withAnti?.delete(podKey)
  }

  /** A bound pod's labels changed (the row is updated already). */
  relabelled(podKey: string, labels: Labels) {
    const placed = this.placed?.get(nsOf(podKey))?.get(podKey)
    if (placed) placed.labels = labels
    const anti = this.withAnti?.get(podKey)
    if (anti) anti.labels = labels
  }
}
