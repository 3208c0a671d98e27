// One workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController), live: its
// status and conditions, its rollout progress, the ReplicaSets or Jobs it owns, its pods (those its selector picks
// that it owns, directly or through those children) and its events.
import { alert, facts, h, replace, table } from '../dom.js'
import { age, seg } from '../format.js'
import { liveTable } from '../live-table.js'
import { KINDS, prefixOf, progress, selectorQuery } from '../workload-kinds.js'
import { liveList } from '../watch.js'
import { livePods } from './pods.js'
import { workloadLink } from './workloads.js'

const ownedBy = (o, uids) => (o.metadata?.ownerReferences ?? []).some((r) => uids.has(r.uid))
const when = (e) => e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? ''

export function workloadPage(ctx, plural, ns, name) {
  const kind = KINDS.find((k) => k.plural === plural)
  if (!kind) return replace(ctx.main, h('h1', {}, 'Not found'))
  const base = `${prefixOf(kind)}/namespaces/${seg(ns)}`
  const summary = h('div')
  const rollout = h('div')
  const conditions = h('div')
  const children = h('div')
  const pods = h('div')
  const childKind = KINDS.find((k) => k.plural === kind.child)
  const events = eventsOf(kind, ns, name)
  replace(
    ctx.main,
    h('p', {}, h('a', { href: '#/workloads' }, '← Workloads')),
    h('h1', {}, `${kind.kind} ${ns}/${name}`),
    summary,
    kind.rollout({ status: {} }).length ? [h('h2', {}, 'Rollout'), rollout] : null,
    h('h2', {}, 'Conditions'),
    conditions,
    childKind ? [h('h2', {}, childKind.title), children] : null,
    h('h2', {}, 'Pods'),
    pods,
    h('h2', {}, 'Events'),
    events.region,
  )
  // What hangs off the object's uid and selector: started when it is first seen, again if it is made anew.
  let owned = null
  const own = (o) => {
    const uid = o.metadata.uid
    if (owned?.uid === uid) return
    owned?.stop()
    // The object's uid and its children's: whose pods are its own.
    const self = new Set([uid])
    const uids = new Set([uid])
    let childTable = null
    let podTable = null
    if (childKind) {
      childTable = liveTable(`${prefixOf(childKind)}/namespaces/${seg(ns)}/${childKind.plural}`, {
        noun: childKind.title,
        caption: (count) => `${count} ${childKind.title} of ${name}`,
        labelSelector: kind.plural === 'deployments' ? selectorQuery(kind.selector(o)) : undefined,
        only: (c) => ownedBy(c, self),
        changed: (items) => {
          for (const c of items.values()) if (ownedBy(c, self)) uids.add(c.metadata.uid)
          podTable?.refresh()
        },
        columns: () => [
          { label: 'Name', cell: (c) => workloadLink(childKind, c) },
          ...childKind.columns,
          childKind.plural === 'replicasets'
            ? { label: 'Revision', cell: (c) => c.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? '' }
            : null,
          { label: 'Age', cell: (c) => age(c.metadata.creationTimestamp) },
        ].filter(Boolean),
      })
      replace(children, childTable.region)
    }
    // Pods owned by the object, or by one of its children (drawn again as children come).
    podTable = livePods(ctx, `/api/v1/namespaces/${seg(ns)}/pods`, `Pods of ${kind.kind} ${name}`, {
      labelSelector: selectorQuery(kind.selector(o)),
      only: (p) => ownedBy(p, uids),
    })
    replace(pods, podTable.region)
    owned = {
      uid,
      stop: () => {
        childTable?.stop()
        podTable.stop()
      },
    }
  }
  const stopObject = liveList(`${base}/${plural}`, {
    fieldSelector: `metadata.name=${name}`,
    onState: (s) => ctx.say(`${kind.kind}: ${s}`),
    onError: (e) => replace(summary, alert(e)),
    onChange: (items) => {
      const o = items.get(`${ns}/${name}`)
      if (!o) {
        replace(rollout)
        replace(conditions)
        return replace(summary, h('p', { className: 'note', id: 'workload-gone' }, `This ${kind.kind} does not exist (any more).`))
      }
      own(o)
      const generation = o.metadata.generation
      const observed = o.status?.observedGeneration
      replace(
        summary,
        facts([
          ...kind.facts(o),
          ['Selector', kind.plural === 'cronjobs' ? undefined : selectorQuery(kind.selector(o)) || 'everything'],
          ['Observed generation', observed === undefined ? undefined : `${observed} of ${generation}`],
          ['Labels', Object.entries(o.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`).join(', ') || undefined],
          ['Age', age(o.metadata.creationTimestamp)],
        ].filter(([, v]) => v !== undefined && v !== null && v !== '')),
      )
      // A Job's counts are pods out of its completions; the others' are replicas out of those desired.
      const desired = kind.desired(o)
      const wanted = kind.plural === 'jobs' ? 'Completions' : 'Desired'
      replace(
        rollout,
        table(`Rollout progress (${wanted.toLowerCase()} ${desired})`, [
          { label: kind.plural === 'jobs' ? 'Pods' : 'Replicas', cell: ([label]) => label },
          { label: 'Count', cell: ([label, n]) => (label === wanted ? String(desired) : `${n ?? 0} of ${desired}`), className: 'count' },
          { label: 'Progress', cell: ([label, n]) => (label === wanted ? '' : progress(n, desired)) },
        ], [[wanted, desired], ...kind.rollout(o)], ([label]) => label),
      )
      replace(
        conditions,
        table('Conditions', [
          { label: 'Type', cell: (c) => c.type },
          { label: 'Status', cell: (c) => c.status },
          { label: 'Reason', cell: (c) => c.reason ?? '' },
          { label: 'Message', cell: (c) => c.message ?? '', className: 'wrap' },
          { label: 'Last transition', cell: (c) => c.lastTransitionTime ?? '' },
        ], o.status?.conditions ?? [], (c) => c.type),
      )
    },
  })
  return () => {
    stopObject()
    owned?.stop()
    events.stop()
  }
}

/** The object's events, live, newest first. */
function eventsOf(kind, ns, name) {
  const t = liveTable(`/api/v1/namespaces/${seg(ns)}/events`, {
    noun: 'events',
    caption: (count) => `${count} events`,
    fieldSelector: `involvedObject.kind=${kind.kind},involvedObject.name=${name}`,
    sort: (a, b) => when(b).localeCompare(when(a)),
    key: (e) => e.metadata.name,
    columns: () => [
      { label: 'Type', cell: (e) => e.type, className: (e) => (e.type === 'Warning' ? 'warn' : '') },
      { label: 'Reason', cell: (e) => e.reason },
      { label: 'Age', cell: (e) => age(when(e)) },
      { label: 'Count', cell: (e) => e.count ?? 1 },
      { label: 'Message', cell: (e) => e.message, className: 'wrap' },
    ],
  })
  return t
}
