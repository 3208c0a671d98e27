// ValidateService with kube's field paths and wording: type, ports, selector, session affinity, external IPs, load
// balancer fields, traffic policies. Cluster IPs and IP families: service-validation-ips.ts; updates and status:
// service-validation-update.ts.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { validateLabels } from '../../validation/object-meta'
import { goQuote } from '../../go-strings'
import {
  duplicateGo,
  goStruct,
  isValidPortNum,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateIP,
  validatePortNumOrName,
  validateQualifiedName,
} from '../pod/pod-validation-formats'
import { validateCIDR, validateNonSpecialIP } from './ip-checks'
import type { ServiceObject, ServicePort } from './service-types'
import { validateClusterIPsRelatedFields, validateIPFamilyConfig } from './service-validation-ips'
import { externallyAccessible, isHeadless, needsHealthCheck } from './service-types'

const SPEC = new FieldPath('spec')
const PROTOCOLS = ['SCTP', 'TCP', 'UDP']
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']
const AFFINITIES = ['ClientIP', 'None']
const TRAFFIC_POLICIES = ['Cluster', 'Local']
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode'
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints'
const LB_SOURCE_RANGES = 'service.beta.kubernetes.io/load-balancer-source-ranges'

/** ValidateService: everything but metadata (the store validates ObjectMeta). */
export function validateService(svc: ServiceObject): FieldError[] {
  const errs: FieldError[] = []
  const spec = svc.spec
  const ann = svc.metadata.annotations ?? {}
  if (
    ann[TOPOLOGY_MODE] !== undefined &&
    ann[TOPOLOGY_HINTS] !== undefined &&
    ann[TOPOLOGY_MODE] !== ann[TOPOLOGY_HINTS]
  ) {
    errs.push(
      fieldError.invalid(
        `metadata.annotations[${TOPOLOGY_MODE}]`,
        ann[TOPOLOGY_MODE],
        `must match annotations[${TOPOLOGY_HINTS}] when both are specified`,
      ),
    )
  }
  const headless = isHeadless(svc)
  const ports = spec.ports ?? []
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(fieldError.required('spec.ports'))
  if ((spec.type === 'LoadBalancer' || spec.type === 'NodePort') && headless) {
    errs.push(
      fieldError.invalid(
        'spec.clusterIPs[0]',
        spec.clusterIPs![0],
        `may not be set to 'None' for ${spec.type} services`,
      ),
    )
  }
  if (spec.type === 'ExternalName') {
    if ((spec.clusterIPs?.length ?? 0) > 0)
      errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'))
    if ((spec.ipFamilies?.length ?? 0) > 0)
      errs.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'))
    if (spec.ipFamilyPolicy !== undefined)
      errs.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'))
    // A CNAME may end in a dot to mark it fully qualified.
    const cname = (spec.externalName ?? '').replace(/\.$/, '')
    if (cname) errs.push(...validateDNS1123Subdomain(cname, SPEC.child('externalName')))
    else errs.push(fieldError.required('spec.externalName'))
  }
  const names = new Set<string>()
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, SPEC.child('ports').index(i))))
  if (spec.selector) errs.push(...validateLabels(spec.selector, SPEC.child('selector')))
  if (!spec.sessionAffinity) errs.push(fieldError.required('spec.sessionAffinity'))
  else if (!AFFINITIES.includes(spec.sessionAffinity))
    errs.push(fieldError.notSupported('spec.sessionAffinity', spec.sessionAffinity, AFFINITIES))
  if (spec.sessionAffinity === 'ClientIP') errs.push(...validateClientIPAffinity(svc))
  else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig) {
    errs.push(fieldError.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'))
  }
  errs.push(...validateClusterIPsRelatedFields(svc))
  errs.push(...validateIPFamilyConfig(svc))
  ;(spec.externalIPs ?? []).forEach((ip, i) => {
    const at = SPEC.child('externalIPs').index(i)
    const bad = validateIP(ip, at)
    errs.push(...(bad.length ? bad : validateNonSpecialIP(ip, at.toString())))
  })
  if (!spec.type) errs.push(fieldError.required('spec.type'))
  else if (!SERVICE_TYPES.includes(spec.type)) errs.push(fieldError.notSupported('spec.type', spec.type, SERVICE_TYPES))
  if (spec.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort)
        errs.push(fieldError.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"))
    })
  }
  errs.push(...duplicatePorts(ports))
  errs.push(...validateSourceRanges(svc))
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer') {
    errs.push(
      fieldError.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"),
    )
  }
  // kube's own path lacks the `spec.` prefix here.
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined)
    errs.push(fieldError.required('allocateLoadBalancerNodePorts'))
  errs.push(...validateLoadBalancerClass(svc))
  errs.push(...validateExternalTrafficPolicy(svc))
  if (spec.internalTrafficPolicy === undefined) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
      errs.push(fieldError.required('spec.internalTrafficPolicy'))
  } else if (!TRAFFIC_POLICIES.includes(spec.internalTrafficPolicy)) {
    errs.push(fieldError.notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, TRAFFIC_POLICIES))
  }
  if (spec.trafficDistribution !== undefined && spec.trafficDistribution !== 'PreferClose') {
    errs.push(fieldError.notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']))
  }
  return errs
}

function validateServicePort(p: ServicePort, requireName: boolean, names: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const name = p.name ?? ''
  if (requireName && !name) errs.push(fieldError.required(path.child('name').toString()))
  else if (name) {
    errs.push(...validateDNS1123Label(name, path.child('name')))
    if (names.has(name)) errs.push(fieldError.duplicate(path.child('name').toString(), name))
    else names.add(name)
  }
  for (const m of isValidPortNum(p.port)) errs.push(fieldError.invalid(path.child('port').toString(), p.port, m))
  if (!p.protocol) errs.push(fieldError.required(path.child('protocol').toString()))
  else if (!PROTOCOLS.includes(p.protocol))
    errs.push(fieldError.notSupported(path.child('protocol').toString(), p.protocol, PROTOCOLS))
  if (p.targetPort !== undefined) errs.push(...validatePortNumOrName(p.targetPort, path.child('targetPort')))
  if (p.appProtocol !== undefined) errs.push(...validateQualifiedName(p.appProtocol, path.child('appProtocol')))
  return errs
}

/** Duplicate (protocol, nodePort) and (protocol, port) pairs; kube prints the port pair as a Go struct. */
function duplicatePorts(ports: readonly ServicePort[]): FieldError[] {
  const errs: FieldError[] = []
  const nodePorts = new Set<string>()
  const pairs = new Set<string>()
  ports.forEach((p, i) => {
    if (p.nodePort) {
      const key = `${p.protocol}/${p.nodePort}`
      if (nodePorts.has(key)) errs.push(fieldError.duplicate(`spec.ports[${i}].nodePort`, p.nodePort))
      nodePorts.add(key)
    }
    const key = `${p.protocol}/${p.port}`
    if (pairs.has(key)) {
      const value = goStruct('core.ServicePort', [
        ['Name', '""'],
        ['Protocol', goQuote(p.protocol ?? '')],
        ['AppProtocol', '(*string)(nil)'],
        ['Port', String(p.port)],
        ['TargetPort', 'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}'],
        ['NodePort', '0'],
      ])
      errs.push(duplicateGo(`spec.ports[${i}]`, value))
    }
    pairs.add(key)
  })
  return errs
}

function validateClientIPAffinity(svc: ServiceObject): FieldError[] {
  const why = 'when session affinity type is ClientIP'
  const config = svc.spec.sessionAffinityConfig
  if (!config) return [fieldError.required('spec.sessionAffinityConfig', why)]
  if (!config.clientIP) return [fieldError.required('spec.sessionAffinityConfig.clientIP', why)]
  const t = config.clientIP.timeoutSeconds
  if (t === undefined) return [fieldError.required('spec.sessionAffinityConfig.clientIP.timeoutSeconds', why)]
  if (t <= 0 || t > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [
      fieldError.invalid(
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds',
        t,
        `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`,
      ),
    ]
  }
  return []
}

function validateSourceRanges(svc: ServiceObject): FieldError[] {
  const errs: FieldError[] = []
  const ranges = svc.spec.loadBalancerSourceRanges ?? []
  const annotation = svc.metadata.annotations?.[LB_SOURCE_RANGES]
  if (ranges.length > 0) {
    // kube's field path is capitalized here.
    const at = 'spec.LoadBalancerSourceRanges'
    if (svc.spec.type !== 'LoadBalancer')
      errs.push(fieldError.forbidden(at, "may only be used when `type` is 'LoadBalancer'"))
    // Space-padding is tolerated for historical reasons.
    ranges.forEach((r, i) => errs.push(...validateCIDR(r.trim(), `${at}[${i}]`)))
  } else if (annotation !== undefined) {
    const at = `metadata.annotations[${LB_SOURCE_RANGES}]`
    if (svc.spec.type !== 'LoadBalancer')
      errs.push(fieldError.forbidden(at, "may only be used when `type` is 'LoadBalancer'"))
    const value = annotation.trim()
    if (value) for (const r of value.split(',')) errs.push(...validateCIDR(r.trim(), at))
  }
  return errs
}

function validateLoadBalancerClass(svc: ServiceObject): FieldError[] {
  const errs: FieldError[] = []
  const cls = svc.spec.loadBalancerClass
  if (svc.spec.type === 'LoadBalancer') {
    if (cls !== undefined) errs.push(...validateQualifiedName(cls, SPEC.child('loadBalancerClass')))
  } else if (cls !== undefined) {
    errs.push(fieldError.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"))
  }
  return errs
}

function validateExternalTrafficPolicy(svc: ServiceObject): FieldError[] {
  const errs: FieldError[] = []
  const policy = svc.spec.externalTrafficPolicy
  if (!externallyAccessible(svc)) {
    if (policy)
      errs.push(
        fieldError.invalid('spec.externalTrafficPolicy', policy, 'may only be set for externally-accessible services'),
      )
  } else if (!policy) errs.push(fieldError.required('spec.externalTrafficPolicy'))
  else if (!TRAFFIC_POLICIES.includes(policy))
    errs.push(fieldError.notSupported('spec.externalTrafficPolicy', policy, TRAFFIC_POLICIES))
  const hc = svc.spec.healthCheckNodePort ?? 0
  if (!needsHealthCheck(svc)) {
    if (hc !== 0)
      errs.push(
        fieldError.invalid(
          'spec.healthCheckNodePort',
          hc,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      )
  } else if (hc !== 0) {
    // Zero is allowed here: the allocator assigns one after validation (kube validates after allocating).
    for (const m of isValidPortNum(hc)) errs.push(fieldError.invalid('spec.healthCheckNodePort', hc, m))
  }
  return errs
}
