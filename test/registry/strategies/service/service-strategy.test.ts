// The Service strategy through the pure store: kube's defaults, every violation as a cause of one 422 with kube's
// wording, IP-family initialization, update carry-over and type transitions, the status strategy, table and fields.
import { describe, expect, it } from 'vitest'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import { resourceByPlural } from '../../../../src/registry/resources'
import { statusDefOf } from '../../../../src/registry/status-subresource'
import type { KubeObject } from '../../../../src/schema/meta'
import type { Result, Status } from '../../../../src/registry/status'

const def = resourceByPlural('services')!
const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
type Svc = KubeObject & { spec: Record<string, any>; status?: Record<string, any> }

const svc = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { name, ...extra }, spec }) as unknown as KubeObject

function create(body: KubeObject): Svc {
  const r = planCreate(def, ctx, body, () => false)
  if (!r.ok) throw new Error(r.status.message)
  return r.value.object as Svc
}

function refused(r: Result<unknown>): Status {
  if (r.ok) throw new Error('expected a refusal')
  return r.status
}

const causes = (s: Status) => (s.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)

/** A stored service as the allocators would have left it. */
function stored(body: KubeObject, fill: (s: Svc) => void = () => undefined): Stored {
  const obj = create(body)
  if (obj.spec.type !== 'ExternalName' && !obj.spec.clusterIPs) {
    obj.spec.clusterIP = '10.96.10.10'
    obj.spec.clusterIPs = ['10.96.10.10']
  }
  fill(obj)
  obj.metadata.resourceVersion = '5'
  return { rv: 5, object: obj }
}

const update = (current: Stored, body: KubeObject, d = def) =>
  planUpdate(d, ctx, current.object.metadata.name!, body, current)

describe('service defaults on create', () => {
  it('the digest §13.1 body comes out as kube stores it (before allocation)', () => {
    const o = create(svc('web', { selector: { app: 'web' }, ports: [{ port: 80 }] }))
    expect(o.spec).toEqual({
      type: 'ClusterIP',
      selector: { app: 'web' },
      ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
    })
    expect(o.status).toEqual({ loadBalancer: {} })
  })

  it('NodePort and LoadBalancer get externalTrafficPolicy, LoadBalancer allocateLoadBalancerNodePorts', () => {
    const np = create(svc('np', { type: 'NodePort', ports: [{ port: 80, targetPort: 'http' }] }))
    expect(np.spec.externalTrafficPolicy).toBe('Cluster')
    expect(np.spec.allocateLoadBalancerNodePorts).toBeUndefined()
    expect(np.spec.ports[0].targetPort).toBe('http')
    const lb = create(svc('lb', { type: 'LoadBalancer', ports: [{ port: 443, protocol: 'UDP' }] }))
    expect(lb.spec.externalTrafficPolicy).toBe('Cluster')
    expect(lb.spec.allocateLoadBalancerNodePorts).toBe(true)
    expect(lb.spec.ports[0]).toEqual({ port: 443, protocol: 'UDP', targetPort: 443 })
  })

  it('ClientIP affinity gets a 10800 s timeout; None drops any config; an empty selector is no selector', () => {
    const a = create(svc('a', { sessionAffinity: 'ClientIP', ports: [{ port: 1 }], selector: {} }))
    expect(a.spec.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } })
    expect(a.spec.selector).toBeUndefined()
  })

  it('ExternalName gets no IP-family fields and no internalTrafficPolicy; ports are optional', () => {
    const e = create(svc('e', { type: 'ExternalName', externalName: 'example.com' }))
    expect(e.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' })
  })

  it('headless: clusterIPs follows clusterIP; without a selector the policy is RequireDualStack with both families', () => {
    const h = create(svc('h', { clusterIP: 'None', selector: { a: 'b' } }))
    expect(h.spec).toMatchObject({
      clusterIP: 'None',
      clusterIPs: ['None'],
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    })
    const bare = create(svc('bare', { clusterIP: 'None' }))
    expect(bare.spec).toMatchObject({
      clusterIPs: ['None'],
      ipFamilyPolicy: 'RequireDualStack',
      ipFamilies: ['IPv4', 'IPv6'],
    })
  })

  it('a requested clusterIP is copied to clusterIPs (old clients set only clusterIP)', () => {
    const o = create(svc('x', { clusterIP: '10.96.0.50', ports: [{ port: 80 }] }))
    expect(o.spec.clusterIPs).toEqual(['10.96.0.50'])
  })
})

describe('service validation: every violation is a cause of one 422', () => {
  it('DNS-1035 names', () => {
    const s = refused(planCreate(def, ctx, svc('1svc', { ports: [{ port: 80 }] }), () => false))
    expect(s.message).toBe(
      `Service "1svc" is invalid: metadata.name: Invalid value: "1svc": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    )
  })

  it('ports: required, range, names, duplicates, protocol, targetPort', () => {
    expect(causes(refused(planCreate(def, ctx, svc('a', {}), () => false)))).toEqual(['spec.ports: Required value'])
    const s = refused(
      planCreate(
        def,
        ctx,
        svc('b', {
          ports: [
            { port: 0, protocol: 'HTTP', targetPort: 70000 },
            { name: 'Web', port: 80, targetPort: 'a--b' },
            { name: 'x', port: 80 },
            { name: 'x', port: 81, appProtocol: 'bad proto' },
          ],
        }),
        () => false,
      ),
    )
    expect(s.code).toBe(422)
    expect(s.reason).toBe('Invalid')
    expect(causes(s)).toEqual([
      'spec.ports[0].name: Required value',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      expect.stringMatching(/^spec\.ports\[1\]\.name: Invalid value: "Web": a lowercase RFC 1123 label/),
      'spec.ports[1].targetPort: Invalid value: "a--b": must not contain consecutive hyphens',
      'spec.ports[3].name: Duplicate value: "x"',
      expect.stringMatching(/^spec\.ports\[3\]\.appProtocol: Invalid value: "bad proto": name part must consist of/),
      'spec.ports[2]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ])
  })

  it('nodePort only for NodePort and LoadBalancer; duplicates per protocol', () => {
    const c = causes(refused(planCreate(def, ctx, svc('a', { ports: [{ port: 80, nodePort: 30080 }] }), () => false)))
    expect(c).toEqual(["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"])
    const d = causes(
      refused(
        planCreate(
          def,
          ctx,
          svc('b', {
            type: 'NodePort',
            ports: [
              { name: 'a', port: 80, nodePort: 30080 },
              { name: 'b', port: 81, nodePort: 30080 },
            ],
          }),
          () => false,
        ),
      ),
    )
    expect(d).toEqual(['spec.ports[1].nodePort: Duplicate value: 30080'])
    // The same node port for TCP and UDP is fine.
    create(
      svc('c', {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 53, nodePort: 30053 },
          { name: 'b', port: 53, protocol: 'UDP', nodePort: 30053 },
        ],
      }),
    )
  })

  it('externalName: required, a lowercase RFC-1123 hostname (a trailing dot is allowed), no cluster IPs', () => {
    expect(causes(refused(planCreate(def, ctx, svc('a', { type: 'ExternalName' }), () => false)))).toEqual([
      'spec.externalName: Required value',
    ])
    create(svc('b', { type: 'ExternalName', externalName: 'db.example.com.' }))
    const bad = causes(
      refused(
        planCreate(
          def,
          ctx,
          svc('c', { type: 'ExternalName', externalName: 'Bad_Host', clusterIP: '10.96.0.9' }),
          () => false,
        ),
      ),
    )
    expect(bad).toEqual([
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      expect.stringMatching(/^spec\.externalName: Invalid value: "Bad_Host": a lowercase RFC 1123 subdomain/),
    ])
  })

  it('sessionAffinityConfig.clientIP.timeoutSeconds is 1..86400', () => {
    for (const t of [0, 86401]) {
      const c = causes(
        refused(
          planCreate(
            def,
            ctx,
            svc('a', {
              ports: [{ port: 1 }],
              sessionAffinity: 'ClientIP',
              sessionAffinityConfig: { clientIP: { timeoutSeconds: t } },
            }),
            () => false,
          ),
        ),
      )
      expect(c).toEqual([
        `spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: ${t}: must be greater than 0 and less than 86400`,
      ])
    }
    create(
      svc('b', {
        ports: [{ port: 1 }],
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 86400 } },
      }),
    )
  })

  it('cluster IPs: format, None placement, clusterIP/clusterIPs agreement, families this cluster lacks', () => {
    const c = causes(
      refused(
        planCreate(def, ctx, svc('a', { ports: [{ port: 1 }], clusterIP: 'x.y', clusterIPs: ['x.y'] }), () => false),
      ),
    )
    expect(c).toEqual([
      'spec.clusterIPs[0]: Invalid value: "x.y": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ])
    const m = causes(
      refused(
        planCreate(
          def,
          ctx,
          svc('b', { ports: [{ port: 1 }], clusterIP: '10.96.0.5', clusterIPs: ['10.96.0.6'] }),
          () => false,
        ),
      ),
    )
    expect(m).toEqual(['spec.clusterIPs: Invalid value: []string{"10.96.0.6"}: first value must match `clusterIP`'])
    const six = causes(
      refused(planCreate(def, ctx, svc('c', { ports: [{ port: 1 }], ipFamilies: ['IPv6'] }), () => false)),
    )
    expect(six).toEqual(['spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster'])
    const dual = causes(
      refused(
        planCreate(def, ctx, svc('d', { ports: [{ port: 1 }], ipFamilyPolicy: 'RequireDualStack' }), () => false),
      ),
    )
    expect(dual).toEqual([
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ])
    expect(create(svc('e', { ports: [{ port: 1 }], ipFamilyPolicy: 'PreferDualStack' })).spec.ipFamilies).toEqual([
      'IPv4',
    ])
    const nodePortHeadless = causes(
      refused(
        planCreate(def, ctx, svc('f', { type: 'NodePort', clusterIP: 'None', ports: [{ port: 1 }] }), () => false),
      ),
    )
    expect(nodePortHeadless).toEqual([
      `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`,
    ])
  })

  it('type, traffic policies, LoadBalancer-only fields, external IPs', () => {
    const c = causes(
      refused(
        planCreate(
          def,
          ctx,
          svc('a', {
            type: 'Bogus',
            ports: [{ port: 1 }],
            externalIPs: ['127.0.0.1'],
            loadBalancerSourceRanges: ['10.0.0.0/8'],
            allocateLoadBalancerNodePorts: true,
            loadBalancerClass: 'x',
          }),
          () => false,
        ),
      ),
    )
    expect(c).toEqual([
      'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ])
    const etp = causes(
      refused(planCreate(def, ctx, svc('b', { ports: [{ port: 1 }], externalTrafficPolicy: 'Local' }), () => false)),
    )
    expect(etp).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
    ])
    const hc = causes(
      refused(
        planCreate(
          def,
          ctx,
          svc('c', { type: 'NodePort', ports: [{ port: 1 }], healthCheckNodePort: 30001 }),
          () => false,
        ),
      ),
    )
    expect(hc).toEqual([
      "spec.healthCheckNodePort: Invalid value: 30001: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ])
  })
})

describe('service updates', () => {
  const base = () => stored(svc('web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] }))

  it('a sparse PUT keeps the allocated cluster IPs (and changes nothing)', () => {
    const cur = base()
    const r = update(cur, svc('web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] }))
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.change).toBeNull()
  })

  it('clusterIP and clusterIPs may not change once set', () => {
    const cur = base()
    const body = structuredClone(cur.object) as Svc
    body.spec.clusterIP = '10.96.0.99'
    expect(causes(refused(update(cur, body)))).toEqual([
      'spec.clusterIPs[0]: Invalid value: []string{"10.96.0.99"}: may not change once set',
    ])
    const both = structuredClone(cur.object) as Svc
    both.spec.clusterIP = '10.96.0.98'
    both.spec.clusterIPs = ['10.96.0.98']
    expect(causes(refused(update(cur, both)))).toEqual([
      'spec.clusterIPs[0]: Invalid value: []string{"10.96.0.98"}: may not change once set',
    ])
  })

  it('the status of a main-resource write is ignored', () => {
    const cur = base()
    const body = structuredClone(cur.object) as Svc
    body.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }
    const r = update(cur, body)
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.change).toBeNull()
  })

  it('NodePort -> ClusterIP drops the node ports and externalTrafficPolicy the client left as they were', () => {
    const cur = stored(
      svc('np', { type: 'NodePort', ports: [{ port: 80 }] }),
      (s) => (s.spec.ports[0].nodePort = 30111),
    )
    const body = structuredClone(cur.object) as Svc
    body.spec.type = 'ClusterIP'
    const r = update(cur, body)
    if (!r.ok) throw new Error(r.status.message)
    const spec = (r.value.object as Svc).spec
    expect(spec.ports[0].nodePort).toBeUndefined()
    expect(spec.externalTrafficPolicy).toBeUndefined()
    expect(spec.clusterIPs).toEqual(['10.96.10.10'])
  })

  it('ClusterIP -> NodePort keeps the IP and leaves the node port to the allocator', () => {
    const cur = base()
    const r = update(
      cur,
      svc('web', { type: 'NodePort', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] }),
    )
    if (!r.ok) throw new Error(r.status.message)
    const spec = (r.value.object as Svc).spec
    expect(spec).toMatchObject({ type: 'NodePort', clusterIP: '10.96.10.10', externalTrafficPolicy: 'Cluster' })
    expect(spec.ports[0].nodePort).toBeUndefined()
  })

  it('a sparse PUT of a NodePort service keeps its node ports by port name', () => {
    const cur = stored(
      svc('np', {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
        ],
      }),
      (s) => {
        s.spec.ports[0].nodePort = 30001
        s.spec.ports[1].nodePort = 30002
      },
    )
    const r = update(
      cur,
      svc('np', {
        type: 'NodePort',
        ports: [
          { name: 'b', port: 81 },
          { name: 'a', port: 80 },
        ],
      }),
    )
    if (!r.ok) throw new Error(r.status.message)
    expect((r.value.object as Svc).spec.ports.map((p: { nodePort: number }) => p.nodePort)).toEqual([30002, 30001])
  })

  it('-> ExternalName wipes cluster IPs and IP-family fields; LoadBalancer -> ClusterIP clears the load-balancer status', () => {
    const cur = base()
    const body = structuredClone(cur.object) as Svc
    body.spec.type = 'ExternalName'
    body.spec.externalName = 'example.com'
    const r = update(cur, body)
    if (!r.ok) throw new Error(r.status.message)
    const spec = (r.value.object as Svc).spec
    expect(spec.clusterIP).toBeUndefined()
    expect(spec.clusterIPs).toBeUndefined()
    expect(spec.ipFamilies).toBeUndefined()
    expect(spec.ipFamilyPolicy).toBeUndefined()
    const lb = stored(svc('lb', { type: 'LoadBalancer', ports: [{ port: 80 }] }), (s) => {
      s.spec.ports[0].nodePort = 30003
      s.status = { loadBalancer: { ingress: [{ ip: '203.0.113.1', ipMode: 'VIP' }] } }
    })
    const down = structuredClone(lb.object) as Svc
    down.spec.type = 'ClusterIP'
    const d = update(lb, down)
    if (!d.ok) throw new Error(d.status.message)
    expect((d.value.object as Svc).status).toEqual({ loadBalancer: {} })
    expect((d.value.object as Svc).spec.allocateLoadBalancerNodePorts).toBeUndefined()
  })

  it('headless cannot become non-headless', () => {
    const cur = stored(svc('h', { clusterIP: 'None', selector: { a: 'b' } }))
    const body = structuredClone(cur.object) as Svc
    body.spec.clusterIP = '10.96.0.7'
    body.spec.clusterIPs = ['10.96.0.7']
    body.spec.ports = [{ port: 80 }]
    expect(causes(refused(update(cur, body)))).toEqual([
      'spec.clusterIPs[0]: Invalid value: []string{"10.96.0.7"}: may not change once set',
    ])
  })
})

describe('the status subresource', () => {
  const statusDef = statusDefOf(def)!
  const lb = () =>
    stored(
      svc('lb', { type: 'LoadBalancer', ports: [{ port: 80 }] }, { labels: { a: '1' } }),
      (s) => (s.spec.ports[0].nodePort = 30004),
    )

  it('changes only status, labels and annotations; ipMode defaults to VIP', () => {
    const cur = lb()
    const body = structuredClone(cur.object) as Svc
    body.spec.sessionAffinity = 'ClientIP'
    body.spec.ports = [{ port: 81 }]
    body.metadata.labels = { a: '2' }
    body.metadata.annotations = { note: 'x' }
    body.metadata.finalizers = ['example.com/f']
    body.status = { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } }
    const r = update(cur, body, statusDef)
    if (!r.ok) throw new Error(r.status.message)
    const o = r.value.object as Svc
    expect(o.spec).toEqual(cur.object.spec)
    expect(o.metadata.labels).toEqual({ a: '2' })
    expect(o.metadata.annotations).toEqual({ note: 'x' })
    expect(o.metadata.finalizers).toBeUndefined()
    expect(o.status).toEqual({ loadBalancer: { ingress: [{ ip: '203.0.113.9', ipMode: 'VIP' }] } })
  })

  it('validates the load-balancer status', () => {
    const cur = lb()
    const body = structuredClone(cur.object) as Svc
    body.status = {
      loadBalancer: {
        ingress: [
          { ip: 'nope', ipMode: 'VIP' },
          { hostname: '10.0.0.1' },
          { hostname: 'lb.example.com', ipMode: 'Proxy' },
        ],
      },
    }
    expect(causes(refused(update(cur, body, statusDef)))).toEqual([
      'status.loadBalancer.ingress[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'status.loadBalancer.ingress[1].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      'status.loadBalancer.ingress[2].ipMode: Forbidden: may not be specified when `ip` is not set',
    ])
    const ci = stored(svc('ci', { ports: [{ port: 80 }] }))
    const onClusterIP = structuredClone(ci.object) as Svc
    onClusterIP.status = { loadBalancer: { ingress: [{ ip: '203.0.113.9', ipMode: 'VIP' }] } }
    expect(causes(refused(update(ci, onClusterIP, statusDef)))).toEqual([
      "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'",
    ])
  })
})

describe('table and field selectors', () => {
  it('renders kubectl get svc cells', () => {
    const np = stored(
      svc('np', {
        type: 'NodePort',
        selector: { b: '2', a: '1' },
        ports: [
          { name: 'x', port: 80 },
          { name: 'y', port: 53, protocol: 'UDP' },
        ],
      }),
      (s) => {
        s.spec.ports[0].nodePort = 30080
        s.spec.ports[1].nodePort = 30053
      },
    ).object
    expect(def.strategy.table.cells(np, new Date(Date.parse(np.metadata.creationTimestamp!) + 8000))).toEqual([
      'np',
      'NodePort',
      '10.96.10.10',
      '<none>',
      '80:30080/TCP,53:30053/UDP',
      '8s',
      'a=1,b=2',
    ])
    const lb = stored(svc('lb', { type: 'LoadBalancer', ports: [{ port: 80 }], externalIPs: ['198.51.100.1'] })).object
    expect(def.strategy.table.cells(lb, new Date())[3]).toBe('198.51.100.1')
    const pending = stored(svc('lb2', { type: 'LoadBalancer', ports: [{ port: 80 }] })).object
    expect(def.strategy.table.cells(pending, new Date()).slice(3, 5)).toEqual(['<pending>', '80/TCP'])
    const ext = create(svc('e', { type: 'ExternalName', externalName: 'example.com' }))
    expect(def.strategy.table.cells(ext, new Date()).slice(1, 5)).toEqual([
      'ExternalName',
      '<none>',
      'example.com',
      '<none>',
    ])
    expect(def.strategy.table.cells(ext, new Date())[6]).toBe('<none>')
  })

  it('selects on metadata.name, metadata.namespace, spec.clusterIP and spec.type', () => {
    const o = stored(svc('web', { ports: [{ port: 80 }] })).object
    expect(def.strategy.selectableFields(o)).toEqual({
      'metadata.name': 'web',
      'metadata.namespace': 'default',
      'spec.clusterIP': '10.96.10.10',
      'spec.type': 'ClusterIP',
    })
  })
})
