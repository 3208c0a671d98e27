// Services with the endpoints behind them (the Endpoints object of the same name).
import { h, replace } from '../dom.js'
import { age, seg } from '../format.js'
import { liveTable } from '../live-table.js'
import { liveList } from '../watch.js'

const ports = (s) => (s.spec?.ports ?? []).map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(', ')

const addresses = (ep) =>
  (ep?.subsets ?? [])
    .flatMap((s) => (s.addresses ?? []).flatMap((a) => (s.ports ?? [{ port: '' }]).map((p) => `${a.ip}${p.port ? `:${p.port}` : ''}`)))
    .join(', ')

export function servicesPage(ctx) {
  const ns = ctx.namespace
  const scope = ns ? `/api/v1/namespaces/${seg(ns)}` : '/api/v1'
  let endpoints = new Map()
  let endpointsRefused = null
  const services = liveTable(`${scope}/services`, {
    noun: 'services',
    caption: (count) => `${count} services${ns ? ` in ${ns}` : ''}`,
    say: (s) => ctx.say(`Services: ${s}`),
    columns: () =>
      [
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
      ].filter(Boolean),
  })
  replace(ctx.main, h('h1', {}, 'Services'), services.region)
  // Every Endpoints object, page after page: a service's row needs its own whichever page the service is on.
  const stopEndpoints = liveList(`${scope}/endpoints`, {
    eager: true,
    onError: (e) => {
      endpointsRefused = e?.status?.code === 403 ? 'forbidden' : 'unavailable'
      services.refresh()
    },
    onChange: (items) => {
      endpointsRefused = null
      endpoints = items
      services.refresh()
    },
  })
  return () => {
    services.stop()
    stopEndpoints()
  }
}
