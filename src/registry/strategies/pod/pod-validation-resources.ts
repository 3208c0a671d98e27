// Container resources (requests, limits, claims) and resize policies, after kube-apiserver 1.33
// pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { list, notFoundWithDetail, str, validateDNS1123Label } from './pod-validation-formats'
import {
  cmpQuantity,
  isHugePageResourceName,
  isHugePageValueDivisible,
  isOvercommitAllowed,
  quantityString,
  validateContainerResourceName,
  validateResourceQuantityValue,
} from './pod-validation-quantities'
import type { AnyContainer, ResourceRequirements } from './pod-types'

type Ctr = AnyContainer

/**
 * validateResourceRequirements with validateContainerResourceName: names, quantities, requests within limits (equal
 * for resources that cannot be overcommitted), hugepages, and claims that name spec.resourceClaims.
 */
export function validateResourceRequirements(
  req: ResourceRequirements,
  podClaimNames: Set<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const limPath = path.child('limits')
  const reqPath = path.child('requests')
  const limits = req.limits ?? {}
  let limCpuOrMemory = false
  let reqCpuOrMemory = false
  let hugePages = false
  for (const [name, q] of Object.entries(limits)) {
    const p = limPath.key(name)
    errs.push(...validateContainerResourceName(name, p))
    errs.push(...validateResourceQuantityValue(name, q, p))
    if (isHugePageResourceName(name)) {
      hugePages = true
      if (!isHugePageValueDivisible(name, q)) {
        errs.push(
          fieldError.invalid(
            p.toString(),
            quantityString(q),
            `${quantityString(q)} is not positive integer multiple of ${name}`,
          ),
        )
      }
    }
    if (name === 'cpu' || name === 'memory') limCpuOrMemory = true
  }
  for (const [name, q] of Object.entries(req.requests ?? {})) {
    const p = reqPath.key(name)
    errs.push(...validateContainerResourceName(name, p))
    errs.push(...validateResourceQuantityValue(name, q, p))
    const limit = limits[name]
    if (limit !== undefined) {
      const cmp = cmpQuantity(q, limit)
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(
          fieldError.invalid(
            reqPath.toString(),
            quantityString(q),
            `must be equal to ${name} limit of ${quantityString(limit)}`,
          ),
        )
      } else if (cmp > 0) {
        errs.push(
          fieldError.invalid(
            reqPath.toString(),
            quantityString(q),
            `must be less than or equal to ${name} limit of ${quantityString(limit)}`,
          ),
        )
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(fieldError.required(limPath.toString(), 'Limit must be set for non overcommitable resources'))
    }
    if (isHugePageResourceName(name)) {
      hugePages = true
      if (!isHugePageValueDivisible(name, q)) {
        errs.push(
          fieldError.invalid(
            p.toString(),
            quantityString(q),
            `${quantityString(q)} is not positive integer multiple of ${name}`,
          ),
        )
      }
    }
    if (name === 'cpu' || name === 'memory') reqCpuOrMemory = true
  }
  if (!limCpuOrMemory && !reqCpuOrMemory && hugePages)
    errs.push(fieldError.forbidden(path.toString(), 'HugePages require cpu or memory'))
  errs.push(...validateResourceClaimNames(req.claims ?? [], podClaimNames, path.child('claims')))
  return errs
}

function validateResourceClaimNames(
  claims: readonly { name: string; request?: string }[],
  podClaimNames: Set<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const names = new Set<string>()
  claims.forEach((claim, i) => {
    const p = path.index(i)
    const name = claim.name
    if (!name) {
      errs.push(fieldError.required(p.toString()))
      return
    }
    if (names.has(name)) errs.push(fieldError.duplicate(p.toString(), name))
    else {
      let key = name
      if (claim.request) {
        errs.push(...validateDNS1123Label(claim.request, p.child('request')))
        key += `/${claim.request}`
      }
      if (names.has(key)) errs.push(fieldError.duplicate(p.toString(), key))
      else if (!claim.request) {
        for (const existing of names)
          if (existing.startsWith(`${name}/`)) errs.push(fieldError.duplicate(p.toString(), name))
      }
      names.add(key)
    }
    if (!podClaimNames.has(name)) {
      const known = [...podClaimNames].sort()
      const detail = `must be one of the names in pod.spec.resourceClaims${known.length === 0 ? ' which is empty' : `: ${known.join(', ')}`}`
      errs.push(notFoundWithDetail(p.toString(), name, detail))
    }
  })
  return errs
}

/** validateResizePolicy (InPlacePodVerticalScaling is beta and on in 1.33). */
export function validateResizePolicy(ctr: Ctr, path: FieldPath, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  const at = path.toString()
  list(ctr.resizePolicy).forEach((policy, i) => {
    const p = { ...policy, resourceName: str(policy.resourceName) }
    if (seen.has(p.resourceName)) errs.push(fieldError.duplicate(path.index(i).toString(), p.resourceName))
    seen.add(p.resourceName)
    if (p.resourceName === '') errs.push(fieldError.required(at))
    else if (p.resourceName !== 'cpu' && p.resourceName !== 'memory')
      errs.push(fieldError.notSupported(at, p.resourceName, ['cpu', 'memory']))
    const rp = str(p.restartPolicy)
    if (rp === '') errs.push(fieldError.required(at))
    else if (rp !== 'NotRequired' && rp !== 'RestartContainer')
      errs.push(fieldError.notSupported(at, rp, ['NotRequired', 'RestartContainer']))
    if (podRestartPolicy === 'Never' && rp !== 'NotRequired') {
      errs.push(fieldError.invalid(at, rp, "must be 'NotRequired' when `restartPolicy` is 'Never'"))
    }
  })
  return errs
}
