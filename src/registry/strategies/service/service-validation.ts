// Service validation (ValidateService, ValidateServiceUpdate, ValidateServiceStatusUpdate) with kube's field paths
// and wording, plus the IP-family checks kube's allocator makes before allocating (initIPFamilyFields).
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { validateLabels } from '../../validation/object-meta'
import { goQuote } from '../../go-strings'
import {
  duplicateGo,
  goStruct,
  invalidGo,
  ipFamily,
  isDualStack,
  isValidPortNum,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateIP,
  validatePortNumOrName,
  validateQualifiedName,
} from '../pod/pod-validation-formats'
import { isDNS1123Subdomain } from '../../validation/names'
import { validateCIDR, validateNonSpecialIP } from './ip-checks'
import { CLUSTER_IP_FAMILIES } from './service-defaults'
import type { ServiceObject, ServicePort } from './service-types'
import { CLUSTER_IP_NONE, externallyAccessible, hasSelector, isHeadless, needsHealthCheck } from './service-types'

const SPEC = new FieldPath('spec')
const PROTOCOLS = ['SCTP', 'TCP', 'UDP']
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']
const AFFINITIES = ['ClientIP', 'None']
const TRAFFIC_POLICIES = ['Cluster', 'Local']
const IP_FAMILIES = ['IPv4', 'IPv6']
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack']
const IP_MODES = ['Proxy', 'VIP']
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

/** ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs agree, addresses parse, families match. */
function validateClusterIPsRelatedFields(svc: ServiceObject): FieldError[] {
  const spec = svc.spec
  if (spec.type === 'ExternalName') return []
  const errs: FieldError[] = []
  const ips = spec.clusterIPs ?? []
  const ipsValue = formatIPs(ips)
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(fieldError.required('spec.clusterIPs'))
    else if (ips[0] !== spec.clusterIP)
      errs.push(invalidGo('spec.clusterIPs', ipsValue, 'first value must match `clusterIP`'))
  } else if (ips.length > 0) {
    errs.push(invalidGo('spec.clusterIPs', ipsValue, 'must be empty when `clusterIP` is not specified'))
  }
  const seen = new Set<string>()
  ;(spec.ipFamilies ?? []).forEach((f, i) => {
    if (!IP_FAMILIES.includes(f)) errs.push(fieldError.notSupported(`spec.ipFamilies[${i}]`, f, IP_FAMILIES))
    if (seen.has(f)) errs.push(fieldError.duplicate(`spec.ipFamilies[${i}]`, f))
    seen.add(f)
  })
  if (spec.ipFamilyPolicy !== undefined && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(fieldError.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, IP_FAMILY_POLICIES))
  }
  let badIPs = false
  ips.forEach((ip, i) => {
    if (i === 0 && ip === CLUSTER_IP_NONE) {
      if (ips.length > 1) {
        badIPs = true
        errs.push(invalidGo('spec.clusterIPs', ipsValue, "'None' must be the first and only value"))
      }
      return
    }
    const bad = validateIP(ip, SPEC.child('clusterIPs').index(i))
    if (bad.length) badIPs = true
    errs.push(...bad)
  })
  if (ips.length > 2) errs.push(invalidGo('spec.clusterIPs', ipsValue, 'may only hold up to 2 values'))
  if (badIPs) return errs
  if (ips.length > 1 && !isDualStack(ips))
    errs.push(invalidGo('spec.clusterIPs', ipsValue, 'may specify no more than one IP for each IP family'))
  if (!isHeadless(svc)) {
    ips.forEach((ip, i) => {
      const fam = spec.ipFamilies?.[i]
      if (fam === 'IPv4' && ipFamily(ip) === 6)
        errs.push(
          fieldError.invalid(
            `spec.clusterIPs[${i}]`,
            ip,
            `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``,
          ),
        )
      if (fam === 'IPv6' && ipFamily(ip) !== 6)
        errs.push(
          fieldError.invalid(
            `spec.clusterIPs[${i}]`,
            ip,
            `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``,
          ),
        )
    })
  }
  return errs
}

/** What kube's allocator refuses before allocating (initIPFamilyFields) on a single-stack IPv4 cluster. */
function validateIPFamilyConfig(svc: ServiceObject): FieldError[] {
  const spec = svc.spec
  if (spec.type === 'ExternalName') return []
  const errs: FieldError[] = []
  const ips = spec.clusterIPs ?? []
  const families = spec.ipFamilies ?? []
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (ips.length === 2)
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          'SingleStack',
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        ),
      )
    if (families.length === 2)
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          'SingleStack',
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ),
      )
  }
  for (const [i, ip] of ips.entries()) {
    if (ip === CLUSTER_IP_NONE) break
    const fam = ipFamily(ip) === 6 ? 'IPv6' : 'IPv4'
    if (ipFamily(ip) !== null && i >= families.length && !(CLUSTER_IP_FAMILIES as readonly string[]).includes(fam)) {
      errs.push(invalidGo(`spec.clusterIPs[${i}]`, formatIPs(ips), `${fam} is not configured on this cluster`))
    }
  }
  // Headless services without a selector may list families the cluster does not serve.
  if (spec.clusterIP === CLUSTER_IP_NONE && !hasSelector(svc)) return errs
  if (spec.ipFamilyPolicy === 'RequireDualStack') {
    errs.push(
      fieldError.invalid(
        'spec.ipFamilyPolicy',
        'RequireDualStack',
        'this cluster is not configured for dual-stack services',
      ),
    )
  }
  families.forEach((f, i) => {
    if (IP_FAMILIES.includes(f) && !(CLUSTER_IP_FAMILIES as readonly string[]).includes(f)) {
      errs.push(fieldError.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'))
    }
  })
  return errs
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

/** ValidateServiceUpdate: immutability and dual-stack transitions, then everything ValidateService checks. */
export function validateServiceUpdate(svc: ServiceObject, old: ServiceObject): FieldError[] {
  const errs: FieldError[] = []
  errs.push(...validateClusterIPsUpdate(old, svc))
  errs.push(...validateIPFamiliesUpdate(old, svc))
  if (
    old.spec.type === 'LoadBalancer' &&
    svc.spec.type === 'LoadBalancer' &&
    old.spec.loadBalancerClass !== svc.spec.loadBalancerClass
  ) {
    errs.push(
      fieldError.invalid('spec.loadBalancerClass', svc.spec.loadBalancerClass ?? null, 'may not change once set'),
    )
  }
  if (
    needsHealthCheck(old) &&
    needsHealthCheck(svc) &&
    (svc.spec.healthCheckNodePort ?? 0) !== (old.spec.healthCheckNodePort ?? 0)
  ) {
    errs.push(fieldError.forbidden('spec.healthCheckNodePort', 'field is immutable'))
  }
  if (svc.spec.type !== 'ExternalName' && svc.spec.ipFamilyPolicy !== 'SingleStack') {
    const shorter = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) =>
      (a?.length ?? 0) > 0 && (a?.length ?? 0) < (b?.length ?? 0)
    if (shorter(svc.spec.clusterIPs, old.spec.clusterIPs)) {
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          svc.spec.ipFamilyPolicy ?? null,
          "must be 'SingleStack' to release the secondary cluster IP",
        ),
      )
    }
    if (shorter(svc.spec.ipFamilies, old.spec.ipFamilies)) {
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          svc.spec.ipFamilyPolicy ?? null,
          "must be 'SingleStack' to release the secondary IP family",
        ),
      )
    }
  }
  return [...errs, ...validateService(svc)]
}

/** validateUpgradeDowngradeClusterIPs: cluster IPs never change, except on the way to or from ExternalName. */
function validateClusterIPsUpdate(old: ServiceObject, svc: ServiceObject): FieldError[] {
  if (svc.spec.type === 'ExternalName' || old.spec.type === 'ExternalName') return []
  if (isHeadless(old) && isHeadless(svc)) return []
  const errs: FieldError[] = []
  const was = old.spec.clusterIPs ?? []
  const now = svc.spec.clusterIPs ?? []
  const value = formatIPs(now)
  if (was.length === now.length) {
    was.forEach((ip, i) => {
      if (ip !== now[i]) errs.push(invalidGo(`spec.clusterIPs[${i}]`, value, 'may not change once set'))
    })
  } else if (was.length > now.length) {
    if (now.length === 0) errs.push(invalidGo('spec.clusterIPs[0]', value, 'primary clusterIP can not be unset'))
    if (was.length > 0 && now.length > 0 && now[0] !== was[0])
      errs.push(invalidGo('spec.clusterIPs[0]', value, 'may not change once set'))
    if (now.length === 1 && svc.spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          svc.spec.ipFamilyPolicy ?? null,
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      )
    }
  } else if (was.length > 0 && now[0] !== was[0]) {
    errs.push(invalidGo('spec.clusterIPs[0]', value, 'may not change once set'))
  }
  return errs
}

/** validateUpgradeDowngradeIPFamilies: the primary family never changes (headless services excepted). */
function validateIPFamiliesUpdate(old: ServiceObject, svc: ServiceObject): FieldError[] {
  if (svc.spec.type === 'ExternalName' || old.spec.type === 'ExternalName') return []
  if (isHeadless(old) !== isHeadless(svc) || isHeadless(svc)) return []
  const was = old.spec.ipFamilies ?? []
  const now = svc.spec.ipFamilies ?? []
  const value = `[]core.IPFamily{${now.map(goQuote).join(', ')}}`
  const errs: FieldError[] = []
  if (was.length === now.length) {
    was.forEach((f, i) => {
      if (f !== now[i]) errs.push(invalidGo('spec.ipFamilies[0]', value, 'may not change once set'))
    })
  } else if (was.length > now.length) {
    if ((svc.spec.clusterIPs?.length ?? 0) === 0)
      errs.push(invalidGo('spec.ipFamilies[0]', value, 'primary ipFamily can not be unset'))
    if (now.length > 0 && now[0] !== was[0])
      errs.push(invalidGo('spec.ipFamilies[0]', formatIPs(svc.spec.clusterIPs ?? []), 'may not change once set'))
    if (now.length === 1 && svc.spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          svc.spec.ipFamilyPolicy ?? null,
          "must be set to 'SingleStack' when releasing the secondary ipFamily",
        ),
      )
    }
  } else if (was.length > 0 && now.length > 0 && now[0] !== was[0]) {
    errs.push(invalidGo('spec.ipFamilies[0]', formatIPs(svc.spec.clusterIPs ?? []), 'may not change once set'))
  }
  return errs
}

/** ValidateServiceStatusUpdate: the load-balancer status (metadata is the store's). */
export function validateServiceStatusUpdate(svc: ServiceObject): FieldError[] {
  const errs: FieldError[] = []
  const ingress = svc.status?.loadBalancer?.ingress ?? []
  if (svc.spec.type !== 'LoadBalancer' && ingress.length > 0) {
    return [fieldError.forbidden('status.loadBalancer.ingress', "may only be used when `spec.type` is 'LoadBalancer'")]
  }
  ingress.forEach((ing, i) => {
    const at = new FieldPath('status.loadBalancer.ingress').index(i)
    if (ing.ip) errs.push(...validateIP(ing.ip, at.child('ip')))
    if (ing.ipMode === undefined) {
      if (ing.ip) errs.push(fieldError.required(at.child('ipMode').toString(), 'must be specified when `ip` is set'))
    } else if (!ing.ip)
      errs.push(fieldError.forbidden(at.child('ipMode').toString(), 'may not be specified when `ip` is not set'))
    else if (!IP_MODES.includes(ing.ipMode))
      errs.push(fieldError.notSupported(at.child('ipMode').toString(), ing.ipMode, IP_MODES))
    if (ing.hostname) {
      for (const m of isDNS1123Subdomain(ing.hostname))
        errs.push(fieldError.invalid(at.child('hostname').toString(), ing.hostname, m))
      if (ipFamily(ing.hostname) !== null)
        errs.push(
          fieldError.invalid(at.child('hostname').toString(), ing.hostname, 'must be a DNS name, not an IP address'),
        )
    }
  })
  return errs
}

/** %#v of a []string, as kube prints clusterIPs in these errors. */
const formatIPs = (ips: readonly string[]) => `[]string{${ips.map(goQuote).join(', ')}}`
