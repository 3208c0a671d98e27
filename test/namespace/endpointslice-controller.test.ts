// The EndpointSlice controller: the slice kube computes for a service (ready/serving/terminating conditions, ports
// resolved per pod, address family), and end to end with the simulated kubelet: one slice per service with a
// selector, named from the service, labelled and owned by it, following pods and selector changes, put back when
// edited, deleted with the service; hand-written slices are left alone. Also discovery and OpenAPI for the group.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'
import { desiredEndpointGroups } from '../../src/namespace/endpointslice-endpoints'
import type { PodObject } from '../../src/registry/strategies/pod/pod-types'
import type { ServiceObject } from '../../src/registry/strategies/service/service-types'

const GV = ['', 'apis', 'discovery.k8s.io', 'v1'].join('/')
const slicesPath = (ns: string) => `${GV}/namespaces/${ns}/endpointslices`
const slicesOf = async (ns: string, svc: string) =>
  (await req('GET', `${slicesPath(ns)}?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${svc}`)}`)).json
    .items as any[]

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

describe('desiredEndpointGroups', () => {
  it('conditions as kube sets them, terminating pods kept (not ready), ports named as the service ports', () => {
    const s = svc({ selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }] })
    const desired = desiredEndpointGroups(s, [
      runningPod('b', '10.244.0.3', { ready: false }),
      runningPod('a', '10.244.0.2'),
      runningPod('c', '10.244.0.4', { deleting: true }),
      runningPod('done', '10.244.0.6', { phase: 'Succeeded' }),
      runningPod('other', '10.244.0.9', { labels: { app: 'db' } }),
    ])
    const endpoint = (name: string, ip: string, conditions: Record<string, boolean>) => ({
      addresses: [ip],
      conditions,
      nodeName: 'node-1',
      targetRef: ref(name),
    })
    expect(desired).toEqual({
      addressType: 'IPv4',
      groups: [
        {
          ports: [{ name: '', port: 8080, protocol: 'TCP' }],
          endpoints: [
            endpoint('a', '10.244.0.2', { ready: true, serving: true, terminating: false }),
            endpoint('b', '10.244.0.3', { ready: false, serving: false, terminating: false }),
            endpoint('c', '10.244.0.4', { ready: false, serving: true, terminating: true }),
          ],
        },
      ],
    })
  })

  it('publishNotReadyAddresses makes every endpoint ready; no pods means no groups; IPv6 services', () => {
    const s = svc({
      selector: { app: 'web' },
      publishNotReadyAddresses: true,
      ports: [{ name: 'web', port: 80, targetPort: 8080, protocol: 'TCP', appProtocol: 'http' }],
    })
    const [group] = desiredEndpointGroups(s, [runningPod('a', '10.244.0.2', { ready: false })]).groups
    expect(group!.endpoints[0]!.conditions).toEqual({ ready: true, serving: false, terminating: false })
    expect(group!.ports).toEqual([{ name: 'web', port: 8080, protocol: 'TCP', appProtocol: 'http' }])
    expect(desiredEndpointGroups(s, [])).toEqual({ addressType: 'IPv4', groups: [] })
    const v6 = svc({
      selector: { app: 'web' },
      ipFamilies: ['IPv6'],
      ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }],
    })
    expect(desiredEndpointGroups(v6, [runningPod('a', '10.244.0.2')])).toEqual({ addressType: 'IPv6', groups: [] })
  })

  it('pods whose named ports resolve differently form groups of their own instead of being dropped', () => {
    const s = svc({ selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] })
    const other = [{ name: 'http', containerPort: 9090, protocol: 'TCP' }]
    const { groups } = desiredEndpointGroups(s, [
      runningPod('a', '10.244.0.2'),
      runningPod('b', '10.244.0.3', { ports: other }),
      runningPod('c', '10.244.0.4'),
      runningPod('d', '10.244.0.5', { ports: [] }),
    ])
    expect(groups.map((g) => [g.ports, g.endpoints.map((e) => e.targetRef!.name)])).toEqual([
      [[{ name: 'http', port: 8080, protocol: 'TCP' }], ['a', 'c']],
      [[{ name: 'http', port: 9090, protocol: 'TCP' }], ['b']],
      // A pod that resolves none of the ports still gets an endpoint, in a slice without ports (as kube does).
      [[], ['d']],
    ])
  })
})

describe('EndpointSlice controller', () => {
  it('keeps one slice per service: named, labelled, owned, following pods and selector changes, gone with the service', async () => {
    const ns = await makeNamespace('eps')
    const created = await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'web', labels: { tier: 'front' } },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    })
    expect(created.status).toBe(201)
    const empty = await waitFor(async () => (await slicesOf(ns, 'web'))[0])
    expect(empty.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    expect(empty.metadata.generateName).toBe('web-')
    expect(empty.metadata.labels).toEqual({
      tier: 'front',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    })
    expect(empty.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Service',
        name: 'web',
        uid: created.json.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ])
    expect(empty.apiVersion).toBe('discovery.k8s.io/v1')
    expect(empty.addressType).toBe('IPv4')
    expect(empty.endpoints).toEqual([])
    const name = empty.metadata.name

    const p = pod('web-1', { app: 'web' })
    ;(p.spec.containers[0] as Record<string, unknown>).ports = [{ name: 'http', containerPort: 8080 }]
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('db', { app: 'db' }))).status).toBe(201)
    const filled = await waitFor(async () => {
      const [s] = await slicesOf(ns, 'web')
      return s?.endpoints?.[0]?.conditions?.ready ? s : undefined
    })
    const running = (await req('GET', `/api/v1/namespaces/${ns}/pods/web-1`)).json
    expect(filled.metadata.name).toBe(name)
    expect(filled.endpoints).toEqual([
      {
        addresses: [running.status.podIP],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: running.spec.nodeName,
        targetRef: { kind: 'Pod', namespace: ns, name: 'web-1', uid: running.metadata.uid },
      },
    ])
    expect(filled.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }])
    expect(await slicesOf(ns, 'web')).toHaveLength(1)
    const table = await req('GET', slicesPath(ns), undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    })
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'AddressType',
      'Ports',
      'Endpoints',
      'Age',
    ])
    expect(table.json.rows.map((r: any) => r.cells.slice(0, 4))).toEqual([[name, 'IPv4', '8080', running.status.podIP]])

    // Someone edits the slice: the controller puts it back.
    const edited = { ...filled, endpoints: [] }
    expect((await req('PUT', `${slicesPath(ns)}/${name}`, edited)).status).toBe(200)
    await waitFor(async () => ((await slicesOf(ns, 'web'))[0]?.endpoints?.length === 1 ? true : undefined))

    // A selector change moves the slice to the other pod.
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
      const [s] = await slicesOf(ns, 'web')
      return s?.endpoints?.[0]?.targetRef?.name === 'db' && s.endpoints[0].conditions.ready ? s : undefined
    })
    expect(moved.ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }])

    // Deleting the service deletes its slice.
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/services/web`)).status).toBe(200)
    await waitFor(async () => ((await req('GET', `${slicesPath(ns)}/${name}`)).status === 404 ? true : undefined))
  })

  it('250 ready pods fill three slices (100, 100, 50), each pod in exactly one; scaling down empties none early', async () => {
    const ns = await makeNamespace('eps')
    const port = [{ name: 'http', containerPort: 8080 }]
    const created = await req('POST', `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'big' },
      spec: { selector: { app: 'big' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    })
    expect(created.status).toBe(201)
    const make = (i: number) => {
      const p = pod(`big-${String(i).padStart(3, '0')}`, { app: 'big' })
      ;(p.spec.containers[0] as Record<string, unknown>).ports = port
      return req('POST', `/api/v1/namespaces/${ns}/pods`, p)
    }
    for (let i = 0; i < 250; i += 25) {
      const made = await Promise.all(Array.from({ length: 25 }, (_, k) => make(i + k)))
      expect(made.every((r) => r.status === 201)).toBe(true)
    }
    const ready = (slices: any[]) => slices.flatMap((s) => (s.endpoints ?? []).filter((e: any) => e.conditions.ready))
    const full = await waitFor(
      '250 ready endpoints',
      async () => {
        const slices = await slicesOf(ns, 'big')
        return ready(slices).length === 250 ? slices : undefined
      },
      60_000,
    )
    expect(full.map((s) => s.endpoints.length).sort((a, b) => b - a)).toEqual([100, 100, 50])
    const pods = full.flatMap((s) => s.endpoints.map((e: any) => e.targetRef.name))
    expect(new Set(pods).size).toBe(250)
    for (const s of full) {
      expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }])
      expect(s.metadata.ownerReferences[0].uid).toBe(created.json.metadata.uid)
    }
    // 30 pods go: their slices shrink in place, no slice is created or deleted.
    const before = full.map((s) => s.metadata.name).sort()
    const gone = Array.from({ length: 30 }, (_, k) => `big-${String(k * 8).padStart(3, '0')}`)
    await Promise.all(gone.map((n) => req('DELETE', `/api/v1/namespaces/${ns}/pods/${n}?gracePeriodSeconds=0`)))
    const shrunk = await waitFor(
      '220 endpoints',
      async () => {
        const slices = await slicesOf(ns, 'big')
        const all = slices.flatMap((s) => s.endpoints ?? [])
        return all.length === 220 ? slices : undefined
      },
      30_000,
    )
    expect(shrunk.map((s) => s.metadata.name).sort()).toEqual(before)
  }, 120_000)

  it('pods whose named target port resolves differently get a slice of their own', async () => {
    const ns = await makeNamespace('eps')
    expect(
      (
        await req('POST', `/api/v1/namespaces/${ns}/services`, {
          metadata: { name: 'mix' },
          spec: { selector: { app: 'mix' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
        })
      ).status,
    ).toBe(201)
    for (const [name, containerPort] of [
      ['mix-a', 8080],
      ['mix-b', 9090],
      ['mix-c', 8080],
    ] as const) {
      const p = pod(name, { app: 'mix' })
      ;(p.spec.containers[0] as Record<string, unknown>).ports = [{ name: 'http', containerPort }]
      expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
    }
    const slices = await waitFor(async () => {
      const all = await slicesOf(ns, 'mix')
      const ready = all.flatMap((s) => (s.endpoints ?? []).filter((e: any) => e.conditions.ready))
      return ready.length === 3 && all.length === 2 ? all : undefined
    })
    const byPort = Object.fromEntries(
      slices.map((s) => [s.ports[0].port, s.endpoints.map((e: any) => e.targetRef.name).sort()]),
    )
    expect(byPort).toEqual({ 8080: ['mix-a', 'mix-c'], 9090: ['mix-b'] })
  })

  it('services without a selector get no slice; hand-written slices stay as written', async () => {
    const ns = await makeNamespace('eps')
    const manual = {
      metadata: { name: 'ext-1', labels: { 'kubernetes.io/service-name': 'ext' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['192.0.2.10'] }],
      ports: [{ port: 5432 }],
    }
    const m = await req('POST', slicesPath(ns), manual)
    expect(m.status).toBe(201)
    expect(m.json.ports).toEqual([{ name: '', port: 5432, protocol: 'TCP' }])
    expect(m.json.metadata.generation).toBe(1)
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
          metadata: { name: 'sel' },
          spec: { selector: { app: 'x' }, ports: [{ port: 80 }] },
        })
      ).status,
    ).toBe(201)
    await waitFor(async () => ((await slicesOf(ns, 'sel')).length === 1 ? true : undefined))
    const ext = await slicesOf(ns, 'ext')
    expect(ext.map((s) => s.metadata.name)).toEqual(['ext-1'])
    expect(ext[0].metadata.resourceVersion).toBe(m.json.metadata.resourceVersion)
  })

  it('validation: addressType required and one of IPv4, IPv6, FQDN, immutable; addresses of that type; unique port names', async () => {
    const ns = await makeNamespace('eps')
    const post = (body: Record<string, unknown>) =>
      req('POST', slicesPath(ns), { metadata: { name: 'v' }, endpoints: [], ...body })
    const missing = await post({})
    expect(missing.status).toBe(422)
    expect(missing.json.message).toBe('EndpointSlice.discovery.k8s.io "v" is invalid: addressType: Required value')
    const bad = await post({ addressType: 'IPv5' })
    expect(bad.json.message).toContain(
      'addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"',
    )
    const family = await post({ addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1'] }] })
    expect(family.json.message).toContain(
      'endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be an IPv6 address',
    )
    const none = await post({ addressType: 'IPv4', endpoints: [{ addresses: [] }] })
    expect(none.json.message).toContain('endpoints[0].addresses: Required value: must contain at least 1 address')
    const dup = await post({
      addressType: 'FQDN',
      endpoints: [{ addresses: ['db.example.com'] }],
      ports: [
        { name: 'a', port: 1 },
        { name: 'a', port: 2 },
      ],
    })
    expect(dup.json.message).toContain('ports[1].name: Duplicate value: "a"')
    const ok = await post({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] })
    expect(ok.status).toBe(201)
    const changed = await req('PUT', `${slicesPath(ns)}/v`, { ...ok.json, addressType: 'IPv4', endpoints: [] })
    expect(changed.status).toBe(422)
    expect(changed.json.message).toContain('addressType: Invalid value: "IPv4": field is immutable')
  })
})

describe('discovery and OpenAPI for discovery.k8s.io', () => {
  const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'

  it('/apis lists the group (legacy and aggregated); /apis/discovery.k8s.io and its v1 describe it', async () => {
    const legacy = await req('GET', '/apis')
    expect(legacy.json.groups).toContainEqual({
      name: 'discovery.k8s.io',
      versions: [{ groupVersion: 'discovery.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'discovery.k8s.io/v1', version: 'v1' },
    })
    const agg = await req('GET', '/apis', undefined, { accept: AGGREGATED })
    const item = agg.json.items.find((i: any) => i.metadata.name === 'discovery.k8s.io')
    expect(item.versions[0].version).toBe('v1')
    expect(item.versions[0].resources).toContainEqual({
      resource: 'endpointslices',
      responseKind: { group: '', version: '', kind: 'EndpointSlice' },
      scope: 'Namespaced',
      singularResource: 'endpointslice',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    })
    const core = await req('GET', '/api', undefined, { accept: AGGREGATED })
    expect(JSON.stringify(core.json)).not.toContain('endpointslices')
    const group = await req('GET', ['', 'apis', 'discovery.k8s.io'].join('/'))
    expect(group.json).toMatchObject({ kind: 'APIGroup', apiVersion: 'v1', name: 'discovery.k8s.io' })
    const list = await req('GET', GV)
    expect(list.json.kind).toBe('APIResourceList')
    expect(list.json.groupVersion).toBe('discovery.k8s.io/v1')
    expect(list.json.resources.map((r: any) => [r.name, r.kind, r.namespaced])).toEqual([
      ['endpointslices', 'EndpointSlice', true],
    ])
    const v1 = await req('GET', ['', 'api', 'v1'].join('/'))
    expect(v1.json.resources.map((r: any) => r.name)).not.toContain('endpointslices')
  })

  it('the OpenAPI v3 index lists apis/discovery.k8s.io/v1 and serves its document', async () => {
    const index = await req('GET', '/openapi/v3')
    const url = index.json.paths['apis/discovery.k8s.io/v1'].serverRelativeURL as string
    expect(url).toMatch(/^\/openapi\/v3\/apis\/discovery\.k8s\.io\/v1\?hash=[0-9A-F]{128}$/)
    const doc = await req('GET', url)
    expect(doc.status).toBe(200)
    const schemas = doc.json.components.schemas
    expect(schemas['io.k8s.api.discovery.v1.EndpointSlice']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'discovery.k8s.io', kind: 'EndpointSlice', version: 'v1' },
    ])
    expect(schemas['io.k8s.api.discovery.v1.EndpointSliceList']).toBeDefined()
    expect(Object.keys(doc.json.paths)).toContain(`${GV}/namespaces/{namespace}/endpointslices/{name}`)
    expect(doc.json.paths[`${GV}/namespaces/{namespace}/endpointslices`].get.operationId).toBe(
      'listDiscoveryV1NamespacedEndpointSlice',
    )
    const plain = await req('GET', ['', 'openapi', 'v3', 'apis', 'discovery.k8s.io', 'v1'].join('/'))
    expect(plain.status).toBe(200)
  })
})
