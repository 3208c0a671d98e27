// Nodes with their capacity, and one node's details with the pods it runs (live).
import { alert, facts, h, replace } from '../dom.js'
import { age, seg } from '../format.js'
import { liveTable } from '../live-table.js'
import { liveList } from '../watch.js'
import { livePods } from './pods.js'

const readyOf = (n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'

export function nodesPage(ctx) {
  const live = liveTable('/api/v1/nodes', {
    noun: 'nodes',
    caption: (count) => `${count} nodes`,
    say: (s) => ctx.say(`Nodes: ${s}`),
    columns: () => [
      { label: 'Name', cell: (n) => h('a', { href: `#/nodes/${seg(n.metadata.name)}` }, n.metadata.name) },
      { label: 'Status', cell: (n) => (readyOf(n) ? 'Ready' : 'NotReady'), className: (n) => (readyOf(n) ? 'ok' : 'bad') },
      { label: 'CPU', cell: (n) => n.status?.capacity?.cpu ?? '' },
      { label: 'Memory', cell: (n) => n.status?.capacity?.memory ?? '' },
      { label: 'Pods', cell: (n) => n.status?.capacity?.pods ?? '' },
      { label: 'Internal IP', cell: (n) => n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '' },
      { label: 'Age', cell: (n) => age(n.metadata.creationTimestamp) },
    ],
  })
  replace(ctx.main, h('h1', {}, 'Nodes'), live.region)
  return live.stop
}

export function nodePage(ctx, name) {
  const summary = h('div')
  const pods = livePods(ctx, '/api/v1/pods', `Pods on ${name}`, { fieldSelector: `spec.nodeName=${name}`, showNamespace: true })
  replace(ctx.main, h('p', {}, h('a', { href: '#/nodes' }, '← Nodes')), h('h1', {}, `Node ${name}`), summary, h('h2', {}, 'Pods'), pods.region)
  const stop = liveList('/api/v1/nodes', {
    fieldSelector: `metadata.name=${name}`,
    onError: (e) => replace(summary, alert(e)),
    onChange: (items) => {
      const n = items.get(`/${name}`)
      if (!n) return replace(summary, h('p', { className: 'note' }, 'This node does not exist.'))
      const res = (k) => `${n.status?.capacity?.[k] ?? '?'} (allocatable ${n.status?.allocatable?.[k] ?? '?'})`
      replace(
        summary,
        facts([
          ['Ready', readyOf(n) ? 'True' : 'False'],
          ['CPU', res('cpu')],
          ['Memory', res('memory')],
          ['Pods', res('pods')],
          ['Pod CIDR', n.spec?.podCIDR],
          ['Taints', (n.spec?.taints ?? []).map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`).join(', ') || 'none'],
          ['Labels', Object.entries(n.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`).join(', ')],
        ]),
      )
    },
  })
  return () => {
    stop()
    pods.stop()
  }
}
