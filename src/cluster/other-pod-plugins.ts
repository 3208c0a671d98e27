// The scheduler plugins that look at other pods, prepared for one pod over the ledger's bound pods: kube's
// PodTopologySpread (filter and ScheduleAnyway score) and InterPodAffinity (PreFilter and PreScore). Each part is
// absent when its plugin skips the pod, so a pod without affinity terms or spread constraints reads no other pod.
import type { ObjectStore } from '../host/object-store'
import { interPodAffinity, podTerms, preferredAffinityScore } from '../registry/pod-affinity'
import type { PodNeeds } from '../registry/scheduling'
import { type SpreadNode, topologySpread } from '../registry/topology-spread'
import { topologySpreadScore } from '../registry/topology-spread-score'
import type { AffinityIndex } from './affinity-index'
import type { ScheduleRequest } from './cluster-api'

type OtherPodNeeds = Pick<
  PodNeeds,
  'topologySpread' | 'topologySpreadScore' | 'interPodAffinity' | 'interPodAffinityScore'
>

/** What the plugins read: every node, the bound pods, and namespaces' labels (a namespaceSelector matches them). */
interface PluginWorld {
  nodes: readonly SpreadNode[]
  nodeLabels(node: string): Record<string, string> | undefined
  placed: AffinityIndex
  local: ObjectStore
}

export function otherPodPlugins(req: ScheduleRequest, world: PluginWorld): OtherPodNeeds {
  const labels = req.labels ?? {}
  const spreadPod = { ns: req.ns, labels, spec: req.spec, defaultSelector: req.defaultSpreadSelector }
  const placedIn = (ns: string) => world.placed.placedIn(ns)
  const spreadFilter = topologySpread(spreadPod, world.nodes, placedIn)
  const spreadScore = topologySpreadScore(spreadPod, world.nodes, placedIn)
  const nsLabels = new Map<string, Record<string, string> | undefined>()
  const affinityWorld = {
    nodeLabels: world.nodeLabels,
    // Read once per namespace for this pod (a namespaceSelector is matched against every placed pod's namespace).
    nsLabels: (ns: string) => {
      if (!nsLabels.has(ns))
        nsLabels.set(
          ns,
          world.local.get('namespaces', ns)?.object.metadata.labels as Record<string, string> | undefined,
        )
      return nsLabels.get(ns)
    },
    placedPods: () => world.placed.placedPods(),
    affinityPods: () => world.placed.affinityPods(),
  }
  const affinityPod = { ns: req.ns, labels, terms: podTerms(req.ns, req.spec.affinity) }
  const affinityFilter = interPodAffinity(affinityPod, affinityWorld)
  const affinityScore = preferredAffinityScore(affinityPod, affinityWorld)
  return {
    ...(spreadFilter ? { topologySpread: spreadFilter } : {}),
    ...(spreadScore ? { topologySpreadScore: spreadScore } : {}),
    ...(affinityFilter ? { interPodAffinity: affinityFilter } : {}),
    ...(affinityScore ? { interPodAffinityScore: affinityScore } : {}),
  }
}
