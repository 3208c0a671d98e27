// Service allocation end to end through the Worker: cluster-wide uniqueness under concurrency, requests honoured or
// refused with kube's messages, release on delete and on type change (and reuse), no leak from a failed commit or a
// dry run, the `kubernetes` service, the /status subresource, and the repair pass finding nothing to fix.
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { makeNamespace, req, waitFor } from '../helpers'
import type { AllocationRow } from '../../src/cluster/allocators/allocation-types'
import { planAllocation } from '../../src/namespace/service-allocation'
import type { ServiceObject } from '../../src/registry/strategies/service/service-types'

const cluster = () => env.CLUSTER.getByName('cluster')
const allocations = async (): Promise<AllocationRow[]> => (await cluster().allocations()) as AllocationRow[]
const ownedIn = async (ns: string) => (await allocations()).filter((r) => r.owner.startsWith(`${ns}/`))

const service = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }], ...spec },
})

describe('cluster-wide allocation', () => {
  it('150 services created concurrently across 5 namespaces get 150 distinct IPs and node ports, exactly as recorded', async () => {
    const namespaces = await Promise.all([0, 1, 2, 3, 4].map(() => makeNamespace('alloc')))
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => {
        const ns = namespaces[i % 5]!
        return req('POST', `/api/v1/namespaces/${ns}/services`, service(`s${i}`, { type: 'NodePort' }))
      }),
    )
    for (const r of results) expect(r.status, r.text).toBe(201)
    const ips = results.map((r) => r.json.spec.clusterIP as string)
    const ports = results.map((r) => r.json.spec.ports[0].nodePort as number)
    expect(new Set(ips).size).toBe(150)
    expect(new Set(ports).size).toBe(150)
    for (const ip of ips) expect(ip).toMatch(/^10\.(9[6-9]|10\d|11[01])\./)
    for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true)
    // What each service answered is what the cluster object recorded for it, and nothing else.
    const rows = (await allocations()).filter((r) => namespaces.some((ns) => r.owner.startsWith(`${ns}/`)))
    expect(rows.length).toBe(300)
    const expected = results.flatMap((r) => {
      const owner = `${r.json.metadata.namespace}/${r.json.metadata.name}/${r.json.metadata.uid}`
      return [`ip ${r.json.spec.clusterIP} ${owner}`, `nodeport ${r.json.spec.ports[0].nodePort} ${owner}`]
    })
    expect(rows.map((r) => `${r.pool} ${r.value} ${r.owner}`).sort()).toEqual(expected.sort())
    // The repair pass agrees: every value is held by the service it was reserved for.
    const repair = await cluster().repairAllocations(0)
    expect(repair.freed.filter((f) => namespaces.some((ns) => f.owner.startsWith(`${ns}/`)))).toEqual([])
    expect(repair.claimed).toEqual([])
    // Deleting them all gives every value back.
    const deleted = await Promise.all(
      results.map((r) =>
        req('DELETE', `/api/v1/namespaces/${r.json.metadata.namespace}/services/${r.json.metadata.name}`),
      ),
    )
    for (const d of deleted) expect(d.status, d.text).toBe(200)
    expect((await allocations()).filter((r) => namespaces.some((ns) => r.owner.startsWith(`${ns}/`)))).toEqual([])
  })

  it('the kubernetes service exists in default with the first address of the range', async () => {
    await req('GET', '/api/v1/namespaces/default')
    const svc = await waitFor(async () => {
      const g = await req('GET', '/api/v1/namespaces/default/services/kubernetes')
      return g.status === 200 ? g.json : undefined
    })
    expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' })
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    })
    expect(svc.spec.selector).toBeUndefined()
    const taken = await req(
      'POST',
      `/api/v1/namespaces/${await makeNamespace('k')}/services`,
      service('x', { clusterIP: '10.96.0.1' }),
    )
    expect(taken.status).toBe(422)
    expect(taken.json.message).toBe(
      'Service "x" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated',
    )
  })
})

describe('requests, refusals, release and reuse', () => {
  it('a requested IP and node port are honoured if free, refused with kube messages otherwise', async () => {
    const ns = await makeNamespace('req')
    const ok = await req(
      'POST',
      `/api/v1/namespaces/${ns}/services`,
      service('a', { type: 'NodePort', clusterIP: '10.96.5.5', ports: [{ port: 80, nodePort: 30555 }] }),
    )
    expect(ok.status, ok.text).toBe(201)
    expect(ok.json.spec.clusterIPs).toEqual(['10.96.5.5'])
    expect(ok.json.spec.ports[0].nodePort).toBe(30555)
    const outside = await req('POST', `/api/v1/namespaces/${ns}/services`, service('b', { clusterIP: '1.2.3.4' }))
    expect(outside.status).toBe(422)
    expect(outside.json.message).toBe(
      'Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"1.2.3.4"}: failed to allocate IP 1.2.3.4: the provided IP (1.2.3.4) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    )
    expect(outside.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        message:
          'Invalid value: []string{"1.2.3.4"}: failed to allocate IP 1.2.3.4: the provided IP (1.2.3.4) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
      },
    ])
    const port = await req(
      'POST',
      `/api/v1/namespaces/${ns}/services`,
      service('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30555 }] }),
    )
    expect(port.status).toBe(422)
    expect(port.json.message).toBe(
      'Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 30555: provided port is already allocated',
    )
    const range = await req(
      'POST',
      `/api/v1/namespaces/${ns}/services`,
      service('d', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }),
    )
    expect(range.json.message).toBe(
      'Service "d" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    )
    // Nothing of the refused services was kept.
    expect((await ownedIn(ns)).map((r) => r.value).sort()).toEqual(['10.96.5.5', 30555])
  })

  it('deleting a service frees its values at once: the same IP and port can be requested again', async () => {
    const ns = await makeNamespace('reuse')
    const spec = { type: 'NodePort', clusterIP: '10.96.6.6', ports: [{ port: 80, nodePort: 30666 }] }
    expect((await req('POST', `/api/v1/namespaces/${ns}/services`, service('a', spec))).status).toBe(201)
    expect((await req('DELETE', `/api/v1/namespaces/${ns}/services/a`)).status).toBe(200)
    expect(await ownedIn(ns)).toEqual([])
    const again = await req('POST', `/api/v1/namespaces/${ns}/services`, service('b', spec))
    expect(again.status, again.text).toBe(201)
    expect(again.json.spec.clusterIP).toBe('10.96.6.6')
  })

  it('type changes allocate and release: ClusterIP -> NodePort -> ClusterIP -> ExternalName -> LoadBalancer', async () => {
    const ns = await makeNamespace('types')
    const path = `/api/v1/namespaces/${ns}/services/t`
    const c = await req('POST', `/api/v1/namespaces/${ns}/services`, service('t'))
    const ip = c.json.spec.clusterIP as string
    const merge = (body: unknown) => req('PATCH', path, body, { 'content-type': 'application/merge-patch+json' })
    const np = await merge({ spec: { type: 'NodePort' } })
    expect(np.status, np.text).toBe(200)
    const nodePort = np.json.spec.ports[0].nodePort as number
    expect(nodePort).toBeGreaterThanOrEqual(30000)
    expect(np.json.spec.clusterIP).toBe(ip)
    expect((await ownedIn(ns)).map((r) => r.value).sort()).toEqual([ip, nodePort].sort())
    const back = await merge({ spec: { type: 'ClusterIP' } })
    expect(back.json.spec.ports[0].nodePort).toBeUndefined()
    expect(back.json.spec.externalTrafficPolicy).toBeUndefined()
    expect((await ownedIn(ns)).map((r) => r.value)).toEqual([ip])
    const ext = await merge({ spec: { type: 'ExternalName', externalName: 'db.example.com' } })
    expect(ext.status, ext.text).toBe(200)
    expect(ext.json.spec.clusterIP).toBeUndefined()
    expect(await ownedIn(ns)).toEqual([])
    const lb = await merge({ spec: { type: 'LoadBalancer', externalName: null, externalTrafficPolicy: 'Local' } })
    expect(lb.status, lb.text).toBe(200)
    expect(lb.json.spec.clusterIP).not.toBe(ip)
    expect(lb.json.spec.healthCheckNodePort).toBeGreaterThanOrEqual(30000)
    const held = (await ownedIn(ns)).map((r) => r.value)
    expect(held.sort()).toEqual(
      [lb.json.spec.clusterIP, lb.json.spec.ports[0].nodePort, lb.json.spec.healthCheckNodePort].sort(),
    )
    // A changed cluster IP is refused and keeps everything as it was.
    const moved = await merge({ spec: { clusterIP: '10.96.7.7' } })
    expect(moved.status).toBe(422)
    expect(moved.json.message).toBe(
      `Service "t" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.7.7"}: may not change once set`,
    )
    expect((await ownedIn(ns)).map((r) => r.value).sort()).toEqual(held.sort())
  })

  it('a dry run shows allocated values but keeps none', async () => {
    const ns = await makeNamespace('dry')
    const r = await req('POST', `/api/v1/namespaces/${ns}/services?dryRun=All`, service('d', { type: 'NodePort' }))
    expect(r.status, r.text).toBe(201)
    expect(r.json.spec.clusterIP).toMatch(/^10\./)
    expect(r.json.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000)
    expect(await ownedIn(ns)).toEqual([])
  })

  it('a commit that fails releases what was reserved for it', async () => {
    const ns = await makeNamespace('fail')
    const stub = env.NAMESPACES.getByName(ns)
    // Break the next D1 commit of this namespace's object.
    await runInDurableObject(stub, (instance) => {
      const log = (instance as unknown as { host: { log: { commit: (...a: unknown[]) => Promise<number[]> } } }).host
        .log
      const real = log.commit.bind(log)
      log.commit = async () => {
        log.commit = real
        throw new Error('injected D1 failure')
      }
    })
    const r = await req(
      'POST',
      `/api/v1/namespaces/${ns}/services`,
      service('f', { type: 'NodePort', clusterIP: '10.96.8.8' }),
    )
    expect(r.status).toBe(503)
    expect(await ownedIn(ns)).toEqual([])
    const retry = await req(
      'POST',
      `/api/v1/namespaces/${ns}/services`,
      service('f', { type: 'NodePort', clusterIP: '10.96.8.8' }),
    )
    expect(retry.status, retry.text).toBe(201)
  })
})

describe('the status subresource', () => {
  it('GET, PUT and PATCH /status write only status (and labels, annotations); main writes ignore status', async () => {
    const ns = await makeNamespace('st')
    const base = `/api/v1/namespaces/${ns}/services/lb`
    const c = await req('POST', `/api/v1/namespaces/${ns}/services`, {
      ...service('lb', { type: 'LoadBalancer' }),
      status: { loadBalancer: { ingress: [{ ip: '203.0.113.1' }] } },
    })
    expect(c.json.status).toEqual({ loadBalancer: {} })
    const g = await req('GET', `${base}/status`)
    expect(g.status).toBe(200)
    expect(g.json).toEqual(c.json)
    const body = structuredClone(g.json)
    body.status = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } }
    body.spec.sessionAffinity = 'ClientIP'
    body.metadata.labels = { lb: 'yes' }
    const put = await req('PUT', `${base}/status`, body)
    expect(put.status, put.text).toBe(200)
    expect(put.json.status).toEqual({ loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }] } })
    expect(put.json.spec).toEqual(c.json.spec)
    expect(put.json.metadata.labels).toEqual({ lb: 'yes' })
    const patch = await req(
      'PATCH',
      `${base}/status?fieldManager=lb-controller`,
      { status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(patch.status, patch.text).toBe(200)
    expect(patch.json.status.loadBalancer.ingress).toEqual([{ hostname: 'lb.example.com' }])
    expect(patch.json.metadata.managedFields.find((m: any) => m.manager === 'lb-controller').subresource).toBe('status')
    const table = await req('GET', base, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })
    expect(table.json.rows[0].cells[3]).toBe('lb.example.com')
    // A main-resource write cannot touch status.
    const main = await req(
      'PATCH',
      base,
      { status: { loadBalancer: {} } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(main.json.status.loadBalancer.ingress).toEqual([{ hostname: 'lb.example.com' }])
    const bad = await req(
      'PATCH',
      `${base}/status`,
      { status: { loadBalancer: { ingress: [{ ip: 'not-an-ip', ipMode: 'VIP' }] } } },
      {
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(bad.status).toBe(422)
    expect(bad.json.details.causes[0].field).toBe('status.loadBalancer.ingress[0].ip')
    expect((await req('DELETE', `${base}/status`)).status).toBe(405)
    expect((await req('GET', `/api/v1/namespaces/${ns}/services/nope/status`)).status).toBe(404)
  })
})

describe('lists and discovery', () => {
  it('GET /api/v1/services lists across namespaces; discovery lists services/status and endpoints', async () => {
    const ns = await makeNamespace('all')
    await req('POST', `/api/v1/namespaces/${ns}/services`, service('one'))
    const all = await req('GET', `/api/v1/services?fieldSelector=metadata.namespace%3D${ns}`)
    expect(all.json.kind).toBe('ServiceList')
    expect(all.json.items.map((s: any) => s.metadata.name)).toEqual(['one'])
    const byType = await req('GET', `/api/v1/namespaces/${ns}/services?fieldSelector=spec.type%3DClusterIP`)
    expect(byType.json.items.length).toBe(1)
    const v1 = await req('GET', '/api/v1')
    const names = v1.json.resources.map((r: any) => r.name)
    expect(names).toEqual(expect.arrayContaining(['services', 'services/status', 'endpoints']))
    const svc = v1.json.resources.find((r: any) => r.name === 'services')
    expect(svc).toMatchObject({ kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'] })
    expect(v1.json.resources.find((r: any) => r.name === 'endpoints')).toMatchObject({
      kind: 'Endpoints',
      shortNames: ['ep'],
    })
  })
})

describe('planAllocation', () => {
  const svc = (spec: Record<string, unknown>) =>
    ({ metadata: { name: 's', namespace: 'n', uid: 'u' }, spec }) as unknown as ServiceObject

  it('ports with the same number share one node port; held values are not asked for again', () => {
    const next = svc({
      type: 'NodePort',
      clusterIPs: ['10.96.0.9'],
      ports: [
        { port: 53, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
        { port: 80, nodePort: 30080 },
      ],
    })
    const prev = svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.9'], ports: [{ port: 53 }] })
    const plan = planAllocation(next, prev)
    expect(plan.request).toEqual({ clusterIPs: [], nodePorts: [0, 30080] })
    plan.fill({ clusterIPs: [], nodePorts: [31000, 30080] })
    expect(next.spec.ports!.map((p) => p.nodePort)).toEqual([31000, 31000, 30080])
  })

  it('a LoadBalancer without node ports allocates none but honours explicit ones; headless gets no IP', () => {
    const lb = svc({
      type: 'LoadBalancer',
      allocateLoadBalancerNodePorts: false,
      ports: [{ port: 80 }, { port: 81, nodePort: 30081 }],
    })
    expect(planAllocation(lb, null).request).toEqual({ clusterIPs: [''], nodePorts: [30081] })
    const headless = svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 80 }] })
    expect(planAllocation(headless, null).request).toEqual({ clusterIPs: [], nodePorts: [] })
  })
})
