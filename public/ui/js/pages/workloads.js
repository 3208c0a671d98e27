// Workloads the server serves (read from discovery): Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs,
// CronJobs and ReplicationControllers, each live, with rollout progress.
import { served } from '../api.js'
import { alert, h, replace, table } from '../dom.js'
import { age, seg } from '../format.js'
import { liveList } from '../watch.js'

const progress = (done, want) => h('progress', { max: String(want || 1), value: String(done ?? 0), 'aria-label': `${done ?? 0} of ${want ?? 0}` })
const condition = (o, type) => o.status?.conditions?.find((c) => c.type === type)

const KINDS = [
  {
    gv: 'apps/v1',
    plural: 'deployments',
    title: 'Deployments',
    columns: [
      { label: 'Ready', cell: (d) => `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 1}` },
      { label: 'Rollout', cell: (d) => progress(d.status?.updatedReplicas, d.spec?.replicas ?? 1) },
      { label: 'Up-to-date', cell: (d) => d.status?.updatedReplicas ?? 0 },
      { label: 'Available', cell: (d) => d.status?.availableReplicas ?? 0 },
      { label: 'Progressing', cell: (d) => condition(d, 'Progressing')?.reason ?? '' },
    ],
  },
  {
    gv: 'apps/v1',
    plural: 'replicasets',
    title: 'ReplicaSets',
    columns: [
      { label: 'Desired', cell: (r) => r.spec?.replicas ?? 1 },
      { label: 'Current', cell: (r) => r.status?.replicas ?? 0 },
      { label: 'Ready', cell: (r) => progress(r.status?.readyReplicas, r.spec?.replicas ?? 1) },
    ],
  },
  {
    gv: 'apps/v1',
    plural: 'statefulsets',
    title: 'StatefulSets',
    columns: [
      { label: 'Ready', cell: (s) => `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 1}` },
      { label: 'Rollout', cell: (s) => progress(s.status?.updatedReplicas, s.spec?.replicas ?? 1) },
    ],
  },
  {
    gv: 'apps/v1',
    plural: 'daemonsets',
    title: 'DaemonSets',
    columns: [
      { label: 'Desired', cell: (d) => d.status?.desiredNumberScheduled ?? 0 },
      { label: 'Ready', cell: (d) => d.status?.numberReady ?? 0 },
      { label: 'Rollout', cell: (d) => progress(d.status?.updatedNumberScheduled, d.status?.desiredNumberScheduled) },
    ],
  },
  {
    gv: 'batch/v1',
    plural: 'jobs',
    title: 'Jobs',
    columns: [
      { label: 'Completions', cell: (j) => `${j.status?.succeeded ?? 0}/${j.spec?.completions ?? 1}` },
      { label: 'Progress', cell: (j) => progress(j.status?.succeeded, j.spec?.completions ?? 1) },
      { label: 'Active', cell: (j) => j.status?.active ?? 0 },
      { label: 'Failed', cell: (j) => j.status?.failed ?? 0 },
      {
        label: 'Status',
        cell: (j) => (condition(j, 'Complete')?.status === 'True' ? 'Complete' : condition(j, 'Failed')?.status === 'True' ? 'Failed' : 'Running'),
      },
    ],
  },
  {
    gv: 'batch/v1',
    plural: 'cronjobs',
    title: 'CronJobs',
    columns: [
      { label: 'Schedule', cell: (c) => c.spec?.schedule ?? '' },
      { label: 'Suspend', cell: (c) => String(c.spec?.suspend ?? false) },
      { label: 'Active', cell: (c) => (c.status?.active ?? []).length },
      { label: 'Last schedule', cell: (c) => (c.status?.lastScheduleTime ? age(c.status.lastScheduleTime) : '') },
    ],
  },
  {
    gv: 'v1',
    plural: 'replicationcontrollers',
    title: 'ReplicationControllers',
    columns: [
      { label: 'Desired', cell: (r) => r.spec?.replicas ?? 1 },
      { label: 'Current', cell: (r) => r.status?.replicas ?? 0 },
      { label: 'Ready', cell: (r) => progress(r.status?.readyReplicas, r.spec?.replicas ?? 1) },
    ],
  },
]

export async function workloadsPage(ctx) {
  const ns = ctx.namespace
  const heading = h('h1', {}, 'Workloads')
  replace(ctx.main, heading, h('p', { className: 'note' }, 'Reading what the server serves…'))
  const versions = new Map()
  for (const gv of new Set(KINDS.map((k) => k.gv))) versions.set(gv, await served(gv))
  const kinds = KINDS.filter((k) => versions.get(k.gv)?.has(k.plural))
  const sections = kinds.map((k) => ({ kind: k, region: h('div') }))
  replace(ctx.main, heading, sections.map((s) => [h('h2', {}, s.kind.title), s.region]))
  const stops = sections.map(({ kind, region }) => {
    const prefix = kind.gv === 'v1' ? '/api/v1' : `/apis/${kind.gv}`
    return liveList(ns ? `${prefix}/namespaces/${seg(ns)}/${kind.plural}` : `${prefix}/${kind.plural}`, {
      onError: (e) => replace(region, alert(e)),
      onChange: (items) => {
        const rows = [...items.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
        replace(region, table(`${rows.length} ${kind.title}${ns ? ` in ${ns}` : ''}`, [
          { label: 'Name', cell: (o) => o.metadata.name },
          ns ? null : { label: 'Namespace', cell: (o) => o.metadata.namespace },
          ...kind.columns,
          { label: 'Age', cell: (o) => age(o.metadata.creationTimestamp) },
        ].filter(Boolean), rows))
      },
    })
  })
  return () => {
    for (const stop of stops) stop()
  }
}
