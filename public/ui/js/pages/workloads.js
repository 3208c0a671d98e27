// Workloads the server serves (read from discovery): Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs,
// CronJobs and ReplicationControllers, each live and paged, with rollout progress; a row's name opens its page.
import { served } from '../api.js'
import { h, replace } from '../dom.js'
import { age, seg } from '../format.js'
import { liveTable } from '../live-table.js'
import { KINDS, prefixOf } from '../workload-kinds.js'

/** The link to a workload's detail page. */
export const workloadLink = (kind, o) =>
  h('a', { href: `#/workloads/${kind.plural}/${seg(o.metadata.namespace)}/${seg(o.metadata.name)}` }, o.metadata.name)

export async function workloadsPage(ctx) {
  const ns = ctx.namespace
  const heading = h('h1', {}, 'Workloads')
  replace(ctx.main, heading, h('p', { className: 'note' }, 'Reading what the server serves…'))
  const versions = new Map()
  for (const gv of new Set(KINDS.map((k) => k.gv))) versions.set(gv, await served(gv))
  const kinds = KINDS.filter((k) => versions.get(k.gv)?.has(k.plural))
  const tables = kinds.map((kind) =>
    liveTable(ns ? `${prefixOf(kind)}/namespaces/${seg(ns)}/${kind.plural}` : `${prefixOf(kind)}/${kind.plural}`, {
      noun: kind.title,
      caption: (count) => `${count} ${kind.title}${ns ? ` in ${ns}` : ''}`,
      columns: () =>
        [
          { label: 'Name', cell: (o) => workloadLink(kind, o) },
          ns ? null : { label: 'Namespace', cell: (o) => o.metadata.namespace },
          ...kind.columns,
          { label: 'Age', cell: (o) => age(o.metadata.creationTimestamp) },
        ].filter(Boolean),
    }),
  )
  replace(ctx.main, heading, kinds.map((kind, i) => [h('h2', {}, kind.title), tables[i].region]))
  return () => {
    for (const t of tables) t.stop()
  }
}
