// What the InterPodAffinity filter needs of the pods on nodes (src/registry/pod-affinity.ts): each bound pod's
// namespace, node and labels, and the pod affinity and anti-affinity terms of the few pods that have any. The ledger
// keeps them in its pod_bindings rows (labels, pod_affinity) and tells this index of every bind, release and label
// change; each map is loaded from the table on first use. The labels of every bound pod are loaded only once a pod with
// affinity terms or spread constraints of its own, or one kube's default spreading applies to (a pod a Service or a
// ReplicationController, ReplicaSet or StatefulSet selects), is scheduled.
import { type PlacedPod, type PodTerms, podTerms } from '../registry/pod-affinity'

type Obj = Record<string, any>
type Labels = Record<string, string>
type AffinityPod = PlacedPod & { terms: PodTerms }

/** A row's labels: NULL none, '?' not known yet (a row older than the column: none until its namespace says). */
const parseLabels = (json: string | null): Labels => (json && json !== '?' ? (JSON.parse(json) as Labels) : {})

/** A pod key's namespace (keys are `namespace/name/uid`). */
const nsOf = (podKey: string) => podKey.slice(0, podKey.indexOf('/'))

export class AffinityIndex {
  /** Bound pods by namespace, then pod key. */
  private placed: Map<string, Map<string, PlacedPod>> | null = null
  private withAffinity: Map<string, AffinityPod> | null = null

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
      .exec<{ pod_key: string; ns: string; node: string; labels: string | null; terminating: number }>(
        'SELECT pod_key, ns, node, labels, terminating FROM pod_bindings',
      )
      .toArray())
      this.place(r.pod_key, {
        ns: r.ns,
        node: r.node,
        labels: parseLabels(r.labels),
        ...(r.terminating ? { terminating: true } : {}),
      })
    return this.placed
  }

  private place(podKey: string, pod: PlacedPod) {
    let pods = this.placed!.get(pod.ns)
    if (!pods) this.placed!.set(pod.ns, (pods = new Map()))
    pods.set(podKey, pod)
  }

  /** The bound pods with pod affinity or anti-affinity terms of any kind (few, usually). */
  affinityPods(): Iterable<AffinityPod> {
    return this.loadedAffinity().values()
  }

  private loadedAffinity(): Map<string, AffinityPod> {
    if (this.withAffinity) return this.withAffinity
    this.withAffinity = new Map()
    for (const r of this.sql
      .exec<{ pod_key: string; ns: string; node: string; labels: string | null; pod_affinity: string }>(
        'SELECT pod_key, ns, node, labels, pod_affinity FROM pod_bindings WHERE pod_affinity IS NOT NULL',
      )
      .toArray())
      this.withAffinity.set(r.pod_key, {
        ns: r.ns,
        node: r.node,
        labels: parseLabels(r.labels),
        terms: podTerms(r.ns, JSON.parse(r.pod_affinity) as Obj),
      })
    return this.withAffinity
  }

  /** A binding was recorded (the row is written already); `podAffinity` is the pod's spec.affinity without nodeAffinity. */
  bound(podKey: string, pod: PlacedPod, podAffinity: Obj | undefined) {
    if (this.placed) this.place(podKey, pod)
    if (podAffinity && this.withAffinity)
      this.withAffinity.set(podKey, { ...pod, terms: podTerms(pod.ns, podAffinity) })
  }

  released(podKey: string) {
    const pods = this.placed?.get(nsOf(podKey))
    pods?.delete(podKey)
    if (pods?.size === 0) this.placed!.delete(nsOf(podKey))
    this.withAffinity?.delete(podKey)
  }

  /** A bound pod's labels changed, or its pod affinity became known too (the row is updated already). */
  described(podKey: string, labels: Labels, podAffinity: Obj | undefined) {
    const placed = this.placed?.get(nsOf(podKey))?.get(podKey)
    if (placed) placed.labels = labels
    const holder = this.withAffinity?.get(podKey)
    if (holder) holder.labels = labels
    // A pod's affinity became known: the holders are read from the table again when next asked.
    if (podAffinity !== undefined) this.withAffinity = null
  }

  /** A bound pod got its deletionTimestamp (the row is updated already). */
  terminating(podKey: string) {
    const placed = this.placed?.get(nsOf(podKey))?.get(podKey)
    if (placed) placed.terminating = true
  }
}
