// The events stream: the namespace's (or every namespace's) events as they happen, newest first. Every page of the
// list is read (the newest may be on any page: events are listed by name, not by time).
import { alert, h, replace, table } from '../dom.js'
import { age, seg } from '../format.js'
import { liveList } from '../watch.js'

const when = (e) => e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? ''

export function eventsPage(ctx) {
  const ns = ctx.namespace
  const region = h('div', { 'aria-live': 'off' })
  replace(ctx.main, h('h1', {}, 'Events'), region)
  let frame = 0
  const stop = liveList(ns ? `/api/v1/namespaces/${seg(ns)}/events` : '/api/v1/events', {
    eager: true,
    onState: (s) => ctx.say(`Events: ${s}`),
    onError: (e) => replace(region, alert(e)),
    onChange: (items, paging) => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        const rows = [...items.values()].sort((a, b) => when(b).localeCompare(when(a))).slice(0, 500)
        const reading = paging.complete ? '' : ` (reading: ${items.size} so far)`
        replace(region, table(`Latest ${rows.length} events${ns ? ` in ${ns}` : ''}${reading}`, [
          { label: 'Age', cell: (e) => age(when(e)) },
          { label: 'Type', cell: (e) => e.type, className: (e) => (e.type === 'Warning' ? 'warn' : '') },
          { label: 'Reason', cell: (e) => e.reason },
          { label: 'Object', cell: (e) => `${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}` },
          ns ? null : { label: 'Namespace', cell: (e) => e.metadata.namespace },
          { label: 'Message', cell: (e) => e.message, className: 'wrap' },
        ].filter(Boolean), rows, (e) => `${e.metadata.namespace}/${e.metadata.name}`))
      })
    },
  })
  return () => {
    cancelAnimationFrame(frame)
    stop()
  }
}
