// The workload kinds the dashboard knows, as data: where each is served, its columns on the workloads page, its
// rollout counts (desired/updated/ready/available…), its facts, which label selector picks its pods and which kind
// of child owns them (a Deployment's ReplicaSets, a CronJob's Jobs).
import { h } from './dom.js'
import { age } from './format.js'

export const progress = (done, want) =>
  h('progress', { max: String(want || 1), value: String(done ?? 0), 'aria-label': `${done ?? 0} of ${want ?? 0}` })
export const condition = (o, type) => o.status?.conditions?.find((c) => c.type === type)

const replicas = (o) => o.spec?.replicas ?? 1
const images = (o) => (o.spec?.template?.spec?.containers ?? []).map((c) => c.image).join(', ')
const jobState = (j) =>
  condition(j, 'Complete')?.status === 'True' ? 'Complete' : condition(j, 'Failed')?.status === 'True' ? 'Failed' : 'Running'
const deploymentState = (d) => {
  const available = condition(d, 'Available')
  const progressing = condition(d, 'Progressing')
  if (progressing?.status === 'False') return `Stuck (${progressing.reason ?? 'not progressing'})`
  if ((d.status?.updatedReplicas ?? 0) === replicas(d) && (d.status?.availableReplicas ?? 0) === replicas(d) && (d.status?.replicas ?? 0) === replicas(d))
    return 'Rolled out'
  return available?.status === 'True' ? 'Rolling out (available)' : 'Rolling out'
}
// ReplicaSets and ReplicationControllers show the same counts (both run on kube's replica manager).
const replicaSetLike = {
  columns: [
    { label: 'Desired', cell: (r) => replicas(r) },
    { label: 'Current', cell: (r) => r.status?.replicas ?? 0 },
    { label: 'Ready', cell: (r) => progress(r.status?.readyReplicas, replicas(r)) },
  ],
  desired: replicas,
  rollout: (r) => [
    ['Current', r.status?.replicas],
    ['Fully labeled', r.status?.fullyLabeledReplicas],
    ['Ready', r.status?.readyReplicas],
    ['Available', r.status?.availableReplicas],
  ],
}
const strategy = (s) => (s ? s.type ?? '' : '')

/**
 * kind: the Kind; gv, plural: where it is served; title: its section's heading; columns: the workloads page's;
 * desired(o) and rollout(o) → [[label, count]]: the rollout counts out of desired; facts(o) → [[label, value]];
 * selector(o): a LabelSelector picking its pods; child: the plural of the kind between it and its pods.
 */
export const KINDS = [
  {
    kind: 'Deployment',
    gv: 'apps/v1',
    plural: 'deployments',
    title: 'Deployments',
    child: 'replicasets',
    columns: [
      { label: 'Ready', cell: (d) => `${d.status?.readyReplicas ?? 0}/${replicas(d)}` },
      { label: 'Rollout', cell: (d) => progress(d.status?.updatedReplicas, replicas(d)) },
      { label: 'Up-to-date', cell: (d) => d.status?.updatedReplicas ?? 0 },
      { label: 'Available', cell: (d) => d.status?.availableReplicas ?? 0 },
      { label: 'Progressing', cell: (d) => condition(d, 'Progressing')?.reason ?? '' },
    ],
    desired: replicas,
    rollout: (d) => [
      ['Current', d.status?.replicas],
      ['Updated', d.status?.updatedReplicas],
      ['Ready', d.status?.readyReplicas],
      ['Available', d.status?.availableReplicas],
    ],
    facts: (d) => [
      ['Status', deploymentState(d)],
      ['Revision', d.metadata.annotations?.['deployment.kubernetes.io/revision']],
      ['Strategy', strategy(d.spec?.strategy)],
      ['Paused', String(d.spec?.paused ?? false)],
      ['Images', images(d)],
    ],
    selector: (d) => d.spec?.selector,
  },
  {
    kind: 'ReplicaSet',
    gv: 'apps/v1',
    plural: 'replicasets',
    title: 'ReplicaSets',
    ...replicaSetLike,
    facts: (r) => [
      ['Revision', r.metadata.annotations?.['deployment.kubernetes.io/revision']],
      ['Images', images(r)],
    ],
    selector: (r) => r.spec?.selector,
  },
  {
    kind: 'StatefulSet',
    gv: 'apps/v1',
    plural: 'statefulsets',
    title: 'StatefulSets',
    columns: [
      { label: 'Ready', cell: (s) => `${s.status?.readyReplicas ?? 0}/${replicas(s)}` },
      { label: 'Rollout', cell: (s) => progress(s.status?.updatedReplicas, replicas(s)) },
    ],
    desired: replicas,
    rollout: (s) => [
      ['Current', s.status?.currentReplicas],
      ['Updated', s.status?.updatedReplicas],
      ['Ready', s.status?.readyReplicas],
      ['Available', s.status?.availableReplicas],
    ],
    facts: (s) => [
      ['Service', s.spec?.serviceName],
      ['Update strategy', strategy(s.spec?.updateStrategy)],
      ['Current revision', s.status?.currentRevision],
      ['Update revision', s.status?.updateRevision],
      ['Images', images(s)],
    ],
    selector: (s) => s.spec?.selector,
  },
  {
    kind: 'DaemonSet',
    gv: 'apps/v1',
    plural: 'daemonsets',
    title: 'DaemonSets',
    columns: [
      { label: 'Desired', cell: (d) => d.status?.desiredNumberScheduled ?? 0 },
      { label: 'Ready', cell: (d) => d.status?.numberReady ?? 0 },
      { label: 'Rollout', cell: (d) => progress(d.status?.updatedNumberScheduled, d.status?.desiredNumberScheduled) },
    ],
    desired: (d) => d.status?.desiredNumberScheduled ?? 0,
    rollout: (d) => [
      ['Current', d.status?.currentNumberScheduled],
      ['Updated', d.status?.updatedNumberScheduled],
      ['Ready', d.status?.numberReady],
      ['Available', d.status?.numberAvailable],
      ['Misscheduled', d.status?.numberMisscheduled],
    ],
    facts: (d) => [
      ['Update strategy', strategy(d.spec?.updateStrategy)],
      ['Images', images(d)],
    ],
    selector: (d) => d.spec?.selector,
  },
  {
    kind: 'Job',
    gv: 'batch/v1',
    plural: 'jobs',
    title: 'Jobs',
    columns: [
      { label: 'Completions', cell: (j) => `${j.status?.succeeded ?? 0}/${j.spec?.completions ?? 1}` },
      { label: 'Progress', cell: (j) => progress(j.status?.succeeded, j.spec?.completions ?? 1) },
      { label: 'Active', cell: (j) => j.status?.active ?? 0 },
      { label: 'Failed', cell: (j) => j.status?.failed ?? 0 },
      { label: 'Status', cell: jobState },
    ],
    desired: (j) => j.spec?.completions ?? 1,
    rollout: (j) => [
      ['Succeeded', j.status?.succeeded],
      ['Active', j.status?.active],
      ['Ready', j.status?.ready],
      ['Failed', j.status?.failed],
    ],
    facts: (j) => [
      ['Status', jobState(j)],
      ['Parallelism', j.spec?.parallelism],
      ['Started', j.status?.startTime],
      ['Completed', j.status?.completionTime],
      ['Images', images(j)],
    ],
    selector: (j) => j.spec?.selector,
  },
  {
    kind: 'CronJob',
    gv: 'batch/v1',
    plural: 'cronjobs',
    title: 'CronJobs',
    child: 'jobs',
    columns: [
      { label: 'Schedule', cell: (c) => c.spec?.schedule ?? '' },
      { label: 'Suspend', cell: (c) => String(c.spec?.suspend ?? false) },
      { label: 'Active', cell: (c) => (c.status?.active ?? []).length },
      { label: 'Last schedule', cell: (c) => (c.status?.lastScheduleTime ? age(c.status.lastScheduleTime) : '') },
    ],
    desired: () => null,
    rollout: () => [],
    facts: (c) => [
      ['Schedule', c.spec?.schedule],
      ['Time zone', c.spec?.timeZone],
      ['Suspend', String(c.spec?.suspend ?? false)],
      ['Concurrency policy', c.spec?.concurrencyPolicy],
      ['Active jobs', String((c.status?.active ?? []).length)],
      ['Last schedule', c.status?.lastScheduleTime],
      ['Last success', c.status?.lastSuccessfulTime],
      ['Images', (c.spec?.jobTemplate?.spec?.template?.spec?.containers ?? []).map((x) => x.image).join(', ')],
    ],
    // Its pods are its Jobs' pods: every Job's pods carry the job-name label.
    selector: () => ({ matchExpressions: [{ key: 'batch.kubernetes.io/job-name', operator: 'Exists' }] }),
  },
  {
    kind: 'ReplicationController',
    gv: 'v1',
    plural: 'replicationcontrollers',
    title: 'ReplicationControllers',
    ...replicaSetLike,
    facts: (r) => [['Images', images(r)]],
    selector: (r) => (r.spec?.selector ? { matchLabels: r.spec.selector } : undefined),
  },
]

/** A LabelSelector as the labelSelector query parameter says it (kube's LabelSelectorAsSelector). */
export function selectorQuery(sel) {
  const parts = Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`)
  for (const e of sel?.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',')
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`)
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`)
    else if (e.operator === 'Exists') parts.push(e.key)
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`)
  }
  return parts.join(',')
}

/** The API path prefix of a kind's group/version. */
export const prefixOf = (kind) => (kind.gv === 'v1' ? '/api/v1' : `/apis/${kind.gv}`)
