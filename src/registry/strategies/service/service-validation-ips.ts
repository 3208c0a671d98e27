// A service's cluster IPs and IP families as kube validates them (ValidateServiceClusterIPsRelatedFields: clusterIP
// and clusterIPs agree, addresses parse, families match), plus the IP-family checks kube's allocator makes before
// allocating (initIPFamilyFields) on this single-stack IPv4 cluster.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { invalidGo, ipFamily, isDualStack, validateIP } from '../pod/pod-validation-formats'
import { CLUSTER_IP_FAMILIES } from './service-defaults'
import type { ServiceObject } from './service-types'
import { CLUSTER_IP_NONE, hasSelector, isHeadless } from './service-types'

const SPEC = new FieldPath('spec')
const IP_FAMILIES = ['IPv4', 'IPv6']
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack']

/** ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs agree, addresses parse, families match. */
export function validateClusterIPsRelatedFields(svc: ServiceObject): FieldError[] {
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
export function validateIPFamilyConfig(svc: ServiceObject): FieldError[] {
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

/** %#v of a []string, as kube prints clusterIPs in these errors. */
export const formatIPs = (ips: readonly string[]) => `[]string{${ips.map(goQuote).join(', ')}}`
