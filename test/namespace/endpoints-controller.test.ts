// The endpoints controller: the subsets kube computes (ready and not-ready pods, named target ports, terminal and
// terminating pods, headless services), and end to end with the simulated kubelet: Endpoints follow pods and services,
// are deleted with their service, and hand-written Endpoints of selector-less services are left alone.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'
import { desiredSubsets } from '../../src/namespace/endpoints-controller'
import { repackSubsets, endpointsCell } from '../../src/registry/strategies/endpoints'
import type { PodObject } from '../../src/registry/strategies/pod/pod-types'
import type { ServiceObject } from '../../src/registry/strategies/service/service-types'

const svc = (spec: Record<string, unknown>) =>
  ({
    metadata: { name: 'web', namespace: 'n' },
    spec: { clusterIP: '10.96.0.10', ipFamilies: ['IPv4'], ...spec },
  }) as unknown as ServiceObject

function runningPod(
  name: string,
  ip: string,
  opts: {
    ready?: boolean
    labels?: Record<string, string>
    phase?: string
    deleting?: boolean
    ports?: unknown[]
    spec?: Record<string, unknown>
  } = {},
) {
  return {
    metadata: {
      name,
      namespace: 'n',
      uid: `uid-${name}`,
      labels: opts.labels ?? { app: 'web' },
      ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      nodeName: 'node-1',
      containers: [
        { name: 'c', image: 'x', ports: opts.ports ?? [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] },
      ],
      ...opts.spec,
    },
    status: {
      phase: opts.phase ?? 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  } as unknown as PodObject
}

const ref = (name: string) => ({ kind: 'Pod', namespace: 'n', name, uid: `uid-${name}` })

describe('desiredSubsets', () => {
  it('ready and not-ready pods, a named target port resolved per pod, service port names copied', () => {
    const s = svc({ selector: { app: 'web' }, ports: [{ name: 'web', port: 80, targetPort: 'http', protocol: 'TCP' }] })
    const pods = [
      runningPod('b', '10.244.0.3'),
      runningPod('a', '10.244.0.2'),
      runningPod('c', '10.244.0.4', { ready: false }),
      runningPod('other', '10.244.0.9', { labels: { app: 'db' } }),
      runningPod('noport', '10.244.0.5', { ports: [] }),
      runningPod('done', '10.244.0.6', { phase: 'Succeeded' }),
      runningPod('going', '10.244.0.7', { deleting: true }),
    ]
    expect(desiredSubsets(s, pods)).toEqual([
      {
        addresses: [
          { ip: '10.244.0.2', nodeName: 'node-1', targetRef: ref('a') },
          { ip: '10.244.0.3', nodeName: 'node-1', targetRef: ref('b') },
        ],
        notReadyAddresses: [{ ip: '10.244.0.4', nodeName: 'node-1', targetRef: ref('c') }],
        ports: [{ name: 'web', port: 8080, protocol: 'TCP' }],
      },
    ])
  })

  it('publishNotReadyAddresses counts every pod (terminating ones too) as ready', () => {
    const s = svc({
      selector: { app: 'web' },
      publishNotReadyAddresses: true,
      ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
    })
    const subsets = desiredSubsets(s, [
      runningPod('a', '10.244.0.2', { ready: false }),
      runningPod('b', '10.244.0.3', { deleting: true }),
    ])
    expect(subsets).toEqual([
      {
        addresses: [
          { ip: '10.244.0.2', nodeName: 'node-1', targetRef: ref('a') },
          { ip: '10.244.0.3', nodeName: 'node-1', targetRef: ref('b') },
        ],
        ports: [{ port: 8080, protocol: 'TCP' }],
      },
    ])
  })

  it('pods without an IP are left out: no addresses means no subsets', () => {
    const s = svc({ selector: { app: 'web' }, ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }] })
    const pending = {
      metadata: { name: 'p', labels: { app: 'web' } },
      spec: { containers: [] },
      status: { phase: 'Pending' },
    } as unknown as PodObject
    expect(desiredSubsets(s, [pending])).toEqual([])
  })

  it('headless services without ports list bare addresses; hostname when the pod names the service as subdomain', () => {
    const s = svc({ selector: { app: 'web' }, clusterIP: 'None', ports: [] })
    const p = runningPod('a', '10.244.0.2', { spec: { hostname: 'a-0', subdomain: 'web' } })
    expect(desiredSubsets(s, [p])).toEqual([
      { addresses: [{ ip: '10.244.0.2', nodeName: 'node-1', targetRef: ref('a'), hostname: 'a-0' }] },
    ])
  })

  it('pods offering different ports end up in different subsets', () => {
    const s = svc({ selector: { app: 'web' }, ports: [{ name: 'h', port: 80, targetPort: 'http', protocol: 'TCP' }] })
    const a = runningPod('a', '10.244.0.2')
    const b = runningPod('b', '10.244.0.3', { ports: [{ name: 'http', containerPort: 9090, protocol: 'TCP' }] })
    expect(
      desiredSubsets(s, [a, b]).map((ss) => [ss.addresses?.map((x) => x.ip), ss.ports?.map((x) => x.port)]),
    ).toEqual([
      [['10.244.0.2'], [8080]],
      [['10.244.0.3'], [9090]],
    ])
  })
})

describe('repackSubsets and the ENDPOINTS column', () => {
  it('merges addresses sharing ports, ready wins, sorted', () => {
    const packed = repackSubsets([
      { addresses: [{ ip: '10.0.0.2' }], ports: [{ port: 80, protocol: 'TCP' }] },
      { notReadyAddresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
    ])
    expect(packed).toEqual([
      {
        addresses: [{ ip: '10.0.0.2' }],
        notReadyAddresses: [{ ip: '10.0.0.1' }],
        ports: [{ port: 80, protocol: 'TCP' }],
      },
    ])
    expect(repackSubsets(repackSubsets(packed))).toEqual(packed)
  })

  it('prints up to three ip:port pairs, then how many more', () => {
    const ep = (n: number) => ({
      metadata: {},
      subsets: [{ addresses: Array.from({ length: n }, (_, i) => ({ ip: `10.0.0.${i + 1}` })), ports: [{ port: 80 }] }],
    })
    expect(endpointsCell(ep(2))).toBe('10.0.0.1:80,10.0.0.2:80')
    expect(endpointsCell(ep(5))).toBe('10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 2 more...')
    expect(endpointsCell({ metadata: {} })).toBe('<none>')
  })
})

describe('the controller, end to end', () => {
  const endpointsOf = (ns: string, name: string) => req('GET', `/api/v1/namespaces/${ns}/endpoints/${name}`)

  it('keeps Endpoints in step with pods and the service, and deletes them with the service', async () => {
    const ns = await makeNamespace('ep')
    const svcBody = {
      metadata: { name: 'web', labels: { tier: 'front' } },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    }
    expect((await req('POST', `/api/v1/namespaces/${ns}/services`, svcBody)).status).toBe(201)
    // No pods yet: Endpoints exist, with the service's labels and no subsets.
    const empty = await waitFor(async () => {
      const r = await endpointsOf(ns, 'web')
      return r.status === 200 ? r.json : undefined
    })
    expect(empty.metadata.labels).toEqual({ tier: 'front' })
    expect(empty.subsets).toBeUndefined()
    const p = pod('web-1', { app: 'web' })
    ;(p.spec.containers[0] as Record<string, unknown>).ports = [{ name: 'http', containerPort: 8080 }]
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('db', { app: 'db' }))).status).toBe(201)
    const running = await waitFor(async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/pods/web-1`)
      return g.json.status.podIP ? g.json : undefined
    })
    const filled = await waitFor(async () => {
      const r = await endpointsOf(ns, 'web')
      return r.json.subsets?.[0]?.addresses ? r.json : undefined
    })
    expect(filled.subsets).toEqual([
      {
        addresses: [
          {
            ip: running.status.podIP,
            nodeName: running.spec.nodeName,
            targetRef: { kind: 'Pod', namespace: ns, name: 'web-1', uid: running.metadata.uid },
          },
        ],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ])
    const table = await req('GET', `/api/v1/namespaces/${ns}/endpoints`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    })
    expect(table.json.rows.map((r: any) => r.cells.slice(0, 2))).toEqual([['web', `${running.status.podIP}:8080`]])
    // A selector change moves the Endpoints to the other pod.
    const merge = { 'content-type': 'application/merge-patch+json' }
    expect(
      (
        await req(
          'PATCH',
          `/api/v1/namespaces/${ns}/services/web`,
          { spec: { selector: { app: 'db' }, ports: [{ name: 'http', port: 80, targetPort: 80 }] } },
          merge,
        )
      ).status,
    ).toBe(200)
    const moved = await waitFor(async () => {
      const r = await endpointsOf(ns, 'web')
      return r.json.subsets?.[0]?.addresses?.[0]?.targetRef?.name === 'db' ? r.json : undefined
    })
    expect(moved.subsets[0].ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }])
    // Deleting the pod empties them; deleting the service deletes them.
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/pods/db?gracePeriodSeconds=0`)).status).toBe(200)
    await waitFor(async () => ((await endpointsOf(ns, 'web')).json.subsets === undefined ? true : undefined))
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/services/web`)).status).toBe(200)
    await waitFor(async () => ((await endpointsOf(ns, 'web')).status === 404 ? true : undefined))
  })

  it('hand-written Endpoints of a service without a selector stay as written; headless Endpoints are labelled', async () => {
    const ns = await makeNamespace('ep')
    const manual = {
      metadata: { name: 'ext' },
      subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 5432 }] }],
    }
    expect((await req('POST', `/api/v1/namespaces/${ns}/endpoints`, manual)).status).toBe(201)
    expect(
      (
        await req('POST', `/api/v1/namespaces/${ns}/services`, {
          metadata: { name: 'ext' },
          spec: { ports: [{ port: 5432 }] },
        })
      ).status,
    ).toBe(201)
    expect(
      (
        await req('POST', `/api/v1/namespaces/${ns}/services`, {
          metadata: { name: 'hl' },
          spec: { clusterIP: 'None', selector: { app: 'x' }, ports: [{ port: 80 }] },
        })
      ).status,
    ).toBe(201)
    const hl = await waitFor(async () => {
      const r = await endpointsOf(ns, 'hl')
      return r.status === 200 ? r.json : undefined
    })
    expect(hl.metadata.labels).toEqual({ 'service.kubernetes.io/headless': '' })
    const ext = await endpointsOf(ns, 'ext')
    expect(ext.json.subsets).toEqual([{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 5432, protocol: 'TCP' }] }])
    expect(ext.json.metadata.annotations).toBeUndefined()
    // Deleting a service deletes its Endpoints, whoever wrote them (as kube's controller does).
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/services/ext`)).status).toBe(200)
    await waitFor(async () => ((await endpointsOf(ns, 'ext')).status === 404 ? true : undefined))
  })

  it('Endpoints can be watched', async () => {
    const ns = await makeNamespace('ep')
    const list = await req('GET', `/api/v1/namespaces/${ns}/endpoints`)
    const { openWatch } = await import('../helpers')
    const w = await openWatch(
      `/api/v1/namespaces/${ns}/endpoints?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`,
    )
    expect(w.status).toBe(200)
    await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'w' },
      spec: { selector: { app: 'w' }, ports: [{ port: 80 }] },
    })
    const ev = await w.next(5000)
    await w.cancel()
    expect(ev.type).toBe('ADDED')
    expect(ev.object.kind).toBe('Endpoints')
    expect(ev.object.metadata.name).toBe('w')
  })
})
