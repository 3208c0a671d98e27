// Services with the endpoints behind them (the Endpoints object of the same name).
import { alert, h, replace, table } from '../dom.js'
import { age, seg } from '../format.js'
import { liveList } from '../watch.js'

const ports = (s) => (s.spec?.ports ?? []).map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(', ')

const addresses = (ep) =>
  (ep?.subsets ?? [])
    .flatMap((s) => (s.addresses ?? []).flatMap((a) => (s.ports ?? [{ port: '' }]).map((p) => `${a.ip}${p.port ? `:${p.port}` : ''}`)))
    .join(', ')

export function servicesPage(ctx) {
  const ns = ctx.namespace
  const scope = ns ? `/api/v1/namespaces/${seg(ns)}` : '/api/v1'
  const region = h('div')
  replace(ctx.main, h('h1', {}, 'Services'), region)
  let services = new Map()
  let endpoints = new Map()
  let endpointsRefused = null
  const render = () => {
    const rows = [...services.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    replace(region, table(`${rows.length} services${ns ? ` in ${ns}` : ''}`, [
      { label: 'Name', cell: (s) => s.metadata.name },
      ns ? null : { label: 'Namespace', cell: (s) => s.metadata.namespace },
      { label: 'Type', cell: (s) => s.spec?.type ?? 'ClusterIP' },
      { label: 'Cluster IP', cell: (s) => s.spec?.clusterIP ?? '' },
      { label: 'Ports', cell: ports },
      {
        label: 'Endpoints',
        cell: (s) =>
          endpointsRefused
            ? `not visible (${endpointsRefused})`
            : addresses(endpoints.get(`${s.metadata.namespace}/${s.metadata.name}`)) || '<none>',
        className: 'wrap',
      },
      { label: 'Age', cell: (s) => age(s.metadata.creationTimestamp) },
    ].filter(Boolean), rows))
  }
  const stopServices = liveList(`${scope}/services`, {
    onState: (s) => ctx.say(`Services: ${s}`),
    onError: (e) => replace(region, alert(e)),
    onChange: (items) => {
      services = items
      render()
    },
  })
  const stopEndpoints = liveList(`${scope}/endpoints`, {
    onError: (e) => {
      endpointsRefused = e?.status?.code === 403 ? 'forbidden' : 'unavailable'
      render()
    },
    onChange: (items) => {
      endpointsRefused = null
      endpoints = items
      render()
    },
  })
  return () => {
    stopServices()
    stopEndpoints()
  }
}
