// What the InterPodAffinity filter needs of the pods on nodes (src/registry/pod-affinity.ts): each bound pod's
// namespace, node and labels, and the required anti-affinity terms of the few pods that have them. The node ledger
// keeps them in its pod_bindings rows (labels, anti_affinity) and tells this index of every bind, release and label
// change; each map is loaded from the table on first use. The labels of every bound pod are loaded only once a pod with
// affinity terms of its own is scheduled: most clusters never pay for them.
import { affinityTerms, type AffinityTerm, type PlacedPod } from '../registry/pod-affinity'

type Obj = Record<string, any>
type Labels = Record<string, string>
type AntiAffinityPod = PlacedPod & { anti: AffinityTerm[] }

export class AffinityIndex {
  private placed: Map<string, PlacedPod> | null = null
  private withAnti: Map<string, AntiAffinityPod> | null = null

  constructor(private readonly sql: SqlStorage) {}

  placedPods(): Iterable<PlacedPod> {
    if (!this.placed) {
      this.placed = new Map()
      for (const r of this.sql
        .exec<{ pod_key: string; ns: string; node: string; labels: string | null }>(
          'SELECT pod_key, ns, node, labels FROM pod_bindings',
        )
        .toArray())
        this.placed.set(r.pod_key, { ns: r.ns, node: r.node, labels: r.labels ? (JSON.parse(r.labels) as Labels) : {} })
    }
    return this.placed.values()
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
    this.placed?.set(podKey, pod)
    if (antiAffinity?.length && this.withAnti)
      this.withAnti.set(podKey, { ...pod, anti: affinityTerms(pod.ns, antiAffinity) })
  }

  released(podKey: string) {
    this.placed?.delete(podKey)
    this.withAnti?.delete(podKey)
  }

  /** A bound pod's labels changed (the row is updated already). */
  relabelled(podKey: string, labels: Labels) {
    const placed = this.placed?.get(podKey)
    if (placed) placed.labels = labels
    const anti = this.withAnti?.get(podKey)
    if (anti) anti.labels = labels
  }
}
