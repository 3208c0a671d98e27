// One pod: what it is (phase, node, IP, start), its conditions, containers, events, and its logs, followed live.
import { stream } from '../api.js'
import { alert, facts, h, replace, table } from '../dom.js'
import { age, podStatus, restarts, seg } from '../format.js'
import { liveList } from '../watch.js'

const stateOf = (c) => {
  const [name, s] = Object.entries(c.state ?? {})[0] ?? ['unknown', {}]
  return s?.reason ? `${name} (${s.reason})` : name
}

export function podPage(ctx, ns, name) {
  const base = `/api/v1/namespaces/${seg(ns)}/pods/${seg(name)}`
  const summary = h('div')
  const events = h('div')
  const logs = logPanel(ctx, base)
  replace(
    ctx.main,
    h('p', {}, h('a', { href: '#/pods' }, '← Pods')),
    h('h1', {}, `Pod ${ns}/${name}`),
    summary,
    h('h2', {}, 'Events'),
    events,
    h('h2', {}, 'Logs'),
    logs.region,
  )
  const stopPod = liveList(`/api/v1/namespaces/${seg(ns)}/pods`, {
    fieldSelector: `metadata.name=${name}`,
    onState: (s) => ctx.say(`Pod: ${s}`),
    onError: (e) => replace(summary, alert(e)),
    onChange: (items) => {
      const p = items.get(`${ns}/${name}`)
      if (!p) return replace(summary, h('p', { className: 'note', id: 'pod-gone' }, 'This pod does not exist (any more).'))
      logs.containers(p.spec?.containers?.map((c) => c.name) ?? [])
      const statuses = new Map((p.status?.containerStatuses ?? []).map((c) => [c.name, c]))
      replace(
        summary,
        facts([
          ['Status', h('span', { className: `phase phase-${podStatus(p)}`, id: 'pod-status' }, podStatus(p))],
          ['Node', p.spec?.nodeName ? h('a', { href: `#/nodes/${seg(p.spec.nodeName)}` }, p.spec.nodeName) : 'not scheduled'],
          ['Pod IP', p.status?.podIP],
          ['Restarts', String(restarts(p))],
          ['Started', p.status?.startTime],
          ['Age', age(p.metadata.creationTimestamp)],
        ]),
        h('h2', {}, 'Conditions'),
        table('Conditions', [
          { label: 'Type', cell: (c) => c.type },
          { label: 'Status', cell: (c) => c.status },
          { label: 'Reason', cell: (c) => c.reason ?? '' },
          { label: 'Last transition', cell: (c) => c.lastTransitionTime ?? '' },
        ], p.status?.conditions ?? [], (c) => c.type),
        h('h2', {}, 'Containers'),
        table('Containers', [
          { label: 'Name', cell: (c) => c.name },
          { label: 'Image', cell: (c) => c.image },
          { label: 'Ready', cell: (c) => String(statuses.get(c.name)?.ready ?? false) },
          { label: 'Restarts', cell: (c) => String(statuses.get(c.name)?.restartCount ?? 0) },
          { label: 'State', cell: (c) => (statuses.get(c.name) ? stateOf(statuses.get(c.name)) : 'waiting') },
        ], p.spec?.containers ?? [], (c) => c.name),
      )
    },
  })
  const stopEvents = liveList(`/api/v1/namespaces/${seg(ns)}/events`, {
    fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${name}`,
    onError: (e) => replace(events, alert(e)),
    onChange: (items) => {
      const rows = [...items.values()].sort((a, b) => (a.lastTimestamp ?? '').localeCompare(b.lastTimestamp ?? ''))
      replace(events, table(`${rows.length} events`, [
        { label: 'Type', cell: (e) => e.type },
        { label: 'Reason', cell: (e) => e.reason },
        { label: 'Age', cell: (e) => age(e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp) },
        { label: 'Message', cell: (e) => e.message, className: 'wrap' },
      ], rows))
    },
  })
  return () => {
    stopPod()
    stopEvents()
    logs.stop()
  }
}

/** The logs of one container: shown once, or followed until stopped or the pod ends. */
function logPanel(ctx, base) {
  const select = h('select', { id: 'log-container' })
  const follow = h('input', { type: 'checkbox', id: 'log-follow', checked: true })
  const output = h('pre', { className: 'logs', id: 'log-output', tabindex: '0', 'aria-label': 'Log output' })
  const problem = h('div')
  let abort = null
  const button = h('button', { type: 'button', id: 'log-toggle' }, 'Show logs')
  let known = ''
  const stop = () => {
    abort?.abort()
    abort = null
    button.textContent = 'Show logs'
  }
  button.addEventListener('click', async () => {
    if (abort) return stop()
    replace(output)
    replace(problem)
    abort = new AbortController()
    button.textContent = 'Stop'
    const q = new URLSearchParams({ container: select.value, tailLines: '1000' })
    if (follow.checked) q.set('follow', 'true')
    const mine = abort
    try {
      await stream(`${base}/log?${q}`, (text) => {
        const atEnd = output.scrollTop + output.clientHeight >= output.scrollHeight - 4
        output.append(text)
        if (atEnd) output.scrollTop = output.scrollHeight
      }, mine.signal)
      ctx.say(follow.checked ? 'Log stream ended' : 'Logs shown')
    } catch (e) {
      if (e?.name !== 'AbortError') replace(problem, alert(e))
    }
    if (abort === mine) stop()
  })
  const region = h(
    'div',
    {},
    h(
      'div',
      { className: 'controls' },
      h('label', { for: 'log-container' }, 'Container'),
      select,
      h('label', {}, follow, ' Follow'),
      button,
    ),
    problem,
    output,
  )
  return {
    region,
    stop,
    containers(names) {
      const text = names.join(',')
      if (text === known) return
      known = text
      replace(select, names.map((n) => h('option', { value: n }, n)))
    },
  }
}
