// Pods, live: listed in pages then watched over a WebSocket, so a pod appears, changes phase and goes without a
// reload.
import { h, replace } from '../dom.js'
import { age, podStatus, ready, restarts, seg } from '../format.js'
import { liveTable } from '../live-table.js'

/**
 * The pods table for a collection path; `caption` says whose pods. Used by the pods, node and workload pages;
 * `only(pod)` keeps the pods a page wants of those the selectors gave (a workload's own).
 */
export function livePods(ctx, path, caption, { fieldSelector, labelSelector, showNamespace, only } = {}) {
  const columns = [
    {
      label: 'Name',
      cell: (p) => h('a', { href: `#/pods/${seg(p.metadata.namespace)}/${seg(p.metadata.name)}` }, p.metadata.name),
    },
    showNamespace ? { label: 'Namespace', cell: (p) => p.metadata.namespace } : null,
    { label: 'Status', cell: podStatus, className: (p) => `phase phase-${podStatus(p)}` },
    { label: 'Ready', cell: ready, className: 'ready' },
    { label: 'Restarts', cell: restarts, className: 'restarts' },
    {
      label: 'Node',
      cell: (p) => (p.spec?.nodeName ? h('a', { href: `#/nodes/${seg(p.spec.nodeName)}` }, p.spec.nodeName) : ''),
      className: 'node',
    },
    { label: 'IP', cell: (p) => p.status?.podIP ?? '', className: 'ip' },
    { label: 'Age', cell: (p) => age(p.metadata.creationTimestamp) },
  ].filter(Boolean)
  return liveTable(path, {
    noun: 'pods',
    caption: (count) => `${caption} (${count})`,
    columns: () => columns,
    only,
    fieldSelector,
    labelSelector,
    say: (s) => ctx.say(`Pods: ${s}`),
  })
}

export function podsPage(ctx) {
  const ns = ctx.namespace
  const path = ns ? `/api/v1/namespaces/${seg(ns)}/pods` : '/api/v1/pods'
  const { region, stop } = livePods(ctx, path, ns ? `Pods in ${ns}` : 'Pods in all namespaces', { showNamespace: !ns })
  replace(ctx.main, h('h1', {}, 'Pods'), region)
  return stop
}
