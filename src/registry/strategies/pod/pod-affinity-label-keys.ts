// kube 1.33's mutatePodAffinity (MatchLabelKeysInPodAffinity, beta and on): at a pod's create, each pod affinity and
// anti-affinity term's matchLabelKeys become `key In (the pod's value)` and its mismatchLabelKeys `key NotIn (value)`
// in the term's labelSelector, for the keys the pod has a label for; a term without a labelSelector (which selects
// nothing) is left as it is. The scheduler then reads only the labelSelector.
import type { PodObject } from './pod-types'

type Obj = Record<string, any>

function applyLabelKeys(term: Obj | undefined, labels: Record<string, string>) {
  if (!term || term.labelSelector == null) return
  const keys = [
    ...((term.matchLabelKeys ?? []) as string[]).map((key) => [key, 'In'] as const),
    ...((term.mismatchLabelKeys ?? []) as string[]).map((key) => [key, 'NotIn'] as const),
  ]
  for (const [key, operator] of keys) {
    if (!Object.hasOwn(labels, key)) continue
    term.labelSelector.matchExpressions = [
      ...((term.labelSelector.matchExpressions ?? []) as Obj[]),
      { key, operator, values: [labels[key]] },
    ]
  }
}

export function mutatePodAffinity(pod: PodObject) {
  const affinity = pod.spec?.affinity as Obj | undefined
  if (!affinity) return
  const labels = (pod.metadata.labels ?? {}) as Record<string, string>
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = affinity[kind] as Obj | undefined
    if (!a) continue
    for (const weighted of (a.preferredDuringSchedulingIgnoredDuringExecution ?? []) as Obj[])
      applyLabelKeys(weighted.podAffinityTerm, labels)
    for (const term of (a.requiredDuringSchedulingIgnoredDuringExecution ?? []) as Obj[]) applyLabelKeys(term, labels)
  }
}
