// ValidateServiceUpdate (immutable cluster IPs and primary IP family, dual-stack transitions, load balancer class,
// health check node port, then everything ValidateService checks) and ValidateServiceStatusUpdate (the load-balancer
// status), with kube's field paths and wording.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { isDNS1123Subdomain } from '../../validation/names'
import { invalidGo, ipFamily, validateIP } from '../pod/pod-validation-formats'
import type { ServiceObject } from './service-types'
import { isHeadless, needsHealthCheck } from './service-types'
import { validateService } from './service-validation'
import { formatIPs } from './service-validation-ips'

const IP_MODES = ['Proxy', 'VIP']

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
