// Custom resources, when the server serves CustomResourceDefinitions: the definitions, and one kind's objects in the
// columns its definition prints (the server's Table rendering, as kubectl gets it).
import { api } from '../api.js'
import { alert, h, replace, table } from '../dom.js'
import { age, seg } from '../format.js'

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json'

export async function customPage(ctx, crdName) {
  const region = h('div')
  replace(ctx.main, h('h1', {}, crdName ? `Custom resources: ${crdName}` : 'Custom resources'), region)
  try {
    if (!crdName) {
      const list = await api('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')
      const rows = list.items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      replace(region, table(`${rows.length} definitions`, [
        { label: 'Name', cell: (c) => h('a', { href: `#/custom/${seg(c.metadata.name)}` }, c.metadata.name) },
        { label: 'Kind', cell: (c) => c.spec.names.kind },
        { label: 'Scope', cell: (c) => c.spec.scope },
        { label: 'Versions', cell: (c) => c.spec.versions.filter((v) => v.served).map((v) => v.name).join(', ') },
        { label: 'Age', cell: (c) => age(c.metadata.creationTimestamp) },
      ], rows))
      return
    }
    const crd = await api(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${seg(crdName)}`)
    const version = (crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]).name
    const ns = crd.spec.scope === 'Namespaced' && ctx.namespace ? `/namespaces/${seg(ctx.namespace)}` : ''
    const path = `/apis/${crd.spec.group}/${version}${ns}/${crd.spec.names.plural}`
    const t = await api(path, { accept: TABLE })
    if (t.kind === 'Table') {
      const rows = t.rows ?? []
      replace(region, table(`${rows.length} ${crd.spec.names.kind} objects`, t.columnDefinitions.map((c, i) => ({
        label: c.name,
        cell: (r) => String(r.cells[i] ?? ''),
      })), rows, (r) => r.object?.metadata?.name ?? String(r.cells[0])))
    } else {
      replace(region, table(`${t.items.length} ${crd.spec.names.kind} objects`, [
        { label: 'Name', cell: (o) => o.metadata.name },
        { label: 'Namespace', cell: (o) => o.metadata.namespace ?? '' },
        { label: 'Age', cell: (o) => age(o.metadata.creationTimestamp) },
      ], t.items))
    }
  } catch (e) {
    replace(region, alert(e))
  }
}
