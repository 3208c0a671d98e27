// Pods, live: listed then watched over a WebSocket, so a pod appears, changes phase and goes without a reload.
import { alert, h, replace, table } from '../dom.js'
import { age, podStatus, ready, restarts, seg } from '../format.js'
import { liveList } from '../watch.js'

/** The pods table for a collection path; `caption` says whose pods. Used by the pods and node pages. */
export function livePods(ctx, path, caption, { fieldSelector, showNamespace } = {}) {
  const region = h('div', { 'aria-live': 'off' })
  let frame = 0
  const stop = liveList(path, {
    fieldSelector,
    onState: (s) => ctx.say(`Pods: ${s}`),
    onError: (e) => replace(region, alert(e)),
    onChange: (items) => {
      // One render per frame, however many events arrive.
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        const pods = [...items.values()].sort((a, b) =>
          `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`),
        )
        const columns = [
          {
            label: 'Name',
            cell: (p) => h('a', { href: `#/pods/${seg(p.metadata.namespace)}/${seg(p.metadata.name)}` }, p.metadata.name),
          },
          showNamespace ? { label: 'Namespace', cell: (p) => p.metadata.namespace } : null,
          { label: 'Status', cell: podStatus, className: (p) => `phase phase-${podStatus(p)}` },
          { label: 'Ready', cell: ready },
          { label: 'Restarts', cell: restarts, className: 'restarts' },
          {
            label: 'Node',
            cell: (p) => (p.spec?.nodeName ? h('a', { href: `#/nodes/${seg(p.spec.nodeName)}` }, p.spec.nodeName) : ''),
            className: 'node',
          },
          { label: 'IP', cell: (p) => p.status?.podIP ?? '', className: 'ip' },
          { label: 'Age', cell: (p) => age(p.metadata.creationTimestamp) },
        ].filter(Boolean)
        replace(region, table(`${caption} (${pods.length})`, columns, pods))
      })
    },
  })
  return { region, stop: () => (cancelAnimationFrame(frame), stop()) }
}

export function podsPage(ctx) {
  const ns = ctx.namespace
  const path = ns ? `/api/v1/namespaces/${seg(ns)}/pods` : '/api/v1/pods'
  const { region, stop } = livePods(ctx, path, ns ? `Pods in ${ns}` : 'Pods in all namespaces', { showNamespace: !ns })
  replace(ctx.main, h('h1', {}, 'Pods'), region)
  return stop
}
