// Indexed Jobs as kube's job controller runs them (pkg/controller/job/indexed_job_utils.go, success_policy.go): the
// lowest indexes still pending, which pods to remove first (duplicated or out-of-range indexes), what an index's pod
// carries (annotation, label, hostname, JOB_COMPLETION_INDEX from the downward API), and success policy matching.
import type { JobSpec } from '../../schema/batch'
import type { PodTemplateSpec } from '../../schema/replication-controller'
import type { KubeObject } from '../../schema/meta'
import { type Interval, intervalsHas, intervalsTotal, parseIndexes, withIndexes } from './index-intervals'
import { JOB_COMPLETION_INDEX } from './job-labels'
import { completionIndex } from './job-pods'

const ENV_NAME = 'JOB_COMPLETION_INDEX'

/** firstPendingIndexes: the `count` lowest indexes neither succeeded nor held by an active pod. */
export function firstPendingIndexes(succeeded: Interval[], active: KubeObject[], count: number, completions: number) {
  const taken = withIndexes(
    succeeded,
    active.map(completionIndex).filter((i) => i >= 0),
  )
  const out: number[] = []
  for (let i = 0; i < completions && out.length < count; i++) if (!intervalsHas(taken, i)) out.push(i)
  return out
}

/**
 * activePodsForRemoval for an Indexed Job: pods without a valid index, then all but one pod of each repeated index
 * (the one kept is the one `rank` would delete last), then as many more as needed in `rank` order.
 */
export function indexedPodsForRemoval(
  pods: KubeObject[],
  atLeast: number,
  completions: number,
  rank: (a: KubeObject, b: KubeObject) => number,
): KubeObject[] {
  const rm: KubeObject[] = []
  const left: KubeObject[] = []
  const byIndex = new Map<number, KubeObject[]>()
  for (const p of pods) {
    const ix = completionIndex(p)
    if (ix < 0 || ix >= completions) rm.push(p)
    else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p])
  }
  for (const group of byIndex.values()) {
    const sorted = [...group].sort(rank)
    rm.push(...sorted.slice(0, -1))
    left.push(sorted[sorted.length - 1]!)
  }
  if (rm.length < atLeast) rm.push(...[...left].sort(rank).slice(0, atLeast - rm.length))
  return rm
}

/** addCompletionIndexEnvVariables: each container gets JOB_COMPLETION_INDEX from the index label, unless it sets one. */
export function addCompletionIndexEnv(template: PodTemplateSpec) {
  const spec = template.spec
  if (!spec) return
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    if ((c.env ?? []).some((e) => e.name === ENV_NAME)) continue
    c.env = [
      ...(c.env ?? []),
      { name: ENV_NAME, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${JOB_COMPLETION_INDEX}']` } } },
    ]
  }
}

/** What the pod of one index carries: the index as annotation and label, and `<job>-<index>` as hostname. */
export function withCompletionIndex(template: PodTemplateSpec, jobName: string, index: number): PodTemplateSpec {
  const t = structuredClone(template)
  const meta = (t.metadata ??= {})
  meta.annotations = { ...meta.annotations, [JOB_COMPLETION_INDEX]: String(index) }
  meta.labels = { ...meta.labels, [JOB_COMPLETION_INDEX]: String(index) }
  if (t.spec) t.spec.hostname = `${jobName}-${index}`
  return t
}

/** matchSuccessPolicy: the first rule the succeeded indexes meet, as the SuccessCriteriaMet message. */
export function matchSuccessPolicy(spec: JobSpec, succeeded: Interval[]): string | null {
  const policy = spec.successPolicy
  const completions = spec.completions ?? 0
  if (!policy || succeeded.length === 0) return null
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes !== undefined) {
      const required = parseIndexes(rule.succeededIndexes, completions)
      if (required.length === 0) continue
      let contains = 0
      for (const r of required) for (let x = r.first; x <= r.last; x++) if (intervalsHas(succeeded, x)) contains++
      if (
        contains === intervalsTotal(required) ||
        (rule.succeededCount !== undefined && contains >= rule.succeededCount)
      )
        return `Matched rules at index ${index}`
    } else if (rule.succeededCount !== undefined && intervalsTotal(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`
    }
  }
  return null
}
