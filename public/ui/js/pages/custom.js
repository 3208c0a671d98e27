// Custom resources, when the server serves CustomResourceDefinitions: the definitions, and one kind's objects in the
// columns its definition prints (additionalPrinterColumns, as kubectl shows them), both live and paged like the
// other pages.
import { api } from '../api.js'
import { alert, h, replace } from '../dom.js'
import { age, seg } from '../format.js'
import { liveTable } from '../live-table.js'
import { printerColumns } from '../printer-columns.js'

export async function customPage(ctx, crdName) {
  const heading = h('h1', {}, crdName ? `Custom resources: ${crdName}` : 'Custom resources')
  if (!crdName) {
    const live = liveTable('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      noun: 'definitions',
      caption: (count) => `${count} definitions`,
      say: (s) => ctx.say(`Definitions: ${s}`),
      columns: () => [
        { label: 'Name', cell: (c) => h('a', { href: `#/custom/${seg(c.metadata.name)}` }, c.metadata.name) },
        { label: 'Kind', cell: (c) => c.spec.names.kind },
        { label: 'Scope', cell: (c) => c.spec.scope },
        { label: 'Versions', cell: (c) => c.spec.versions.filter((v) => v.served).map((v) => v.name).join(', ') },
        { label: 'Age', cell: (c) => age(c.metadata.creationTimestamp) },
      ],
    })
    replace(ctx.main, heading, live.region)
    return live.stop
  }
  replace(ctx.main, h('p', {}, h('a', { href: '#/custom' }, '← Custom resources')), heading)
  let crd
  try {
    crd = await api(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${seg(crdName)}`)
  } catch (e) {
    ctx.main.append(alert(e))
    return null
  }
  // The storage version when it is served (what the server prints from), else the first served one.
  const served = crd.spec.versions.filter((v) => v.served)
  const version = served.find((v) => v.storage) ?? served[0] ?? crd.spec.versions[0]
  const namespaced = crd.spec.scope === 'Namespaced'
  const ns = namespaced ? ctx.namespace : ''
  const scope = ns ? `/namespaces/${seg(ns)}` : ''
  const kind = crd.spec.names.kind
  const columns = [
    { label: 'Name', cell: (o) => o.metadata.name },
    namespaced && !ns ? { label: 'Namespace', cell: (o) => o.metadata.namespace ?? '' } : null,
    ...printerColumns(version),
  ].filter(Boolean)
  const live = liveTable(`/apis/${crd.spec.group}/${version.name}${scope}/${crd.spec.names.plural}`, {
    noun: `${kind} objects`,
    caption: (count) => `${count} ${kind} objects${ns ? ` in ${ns}` : ''}`,
    say: (s) => ctx.say(`${kind}: ${s}`),
    columns: () => columns,
  })
  ctx.main.append(live.region)
  return live.stop
}
