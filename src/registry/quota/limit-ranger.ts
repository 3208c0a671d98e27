// kube 1.33's LimitRanger admission plugin (plugin/pkg/admission/limitranger): on a pod's create, the default requests
// and limits of the namespace's Container items fill what each container and init container leaves out (noted in the
// kubernetes.io/limit-ranger annotation); then every Container and Pod item's min, max and maxLimitRequestRatio
// judge the pod, and PersistentVolumeClaim items judge a claim's storage request, in kube's words.
import type { LimitRange } from '../../schema/limit-range'
import type { KubeObject } from '../../schema/meta'
import { formatQuantity, parseQuantity, type ParsedQuantity, quantityScaledValue } from '../../schema/quantity'
import { compareUtf8 } from '../go-strings'
import type { Container, PodObject } from '../strategies/pod/pod-types'
import { podTotals } from './quota-usage'

type List = Record<string, string | number>
type Q = string | number | ParsedQuantity

const ANNOTATION = 'kubernetes.io/limit-ranger'
const MAX_MILLI_VALUE = 9223372036854775807n / 1000n
const str = (v: Q) =>
  typeof v === 'object' ? formatQuantity(v) : parseQuantity(v) ? formatQuantity(parseQuantity(v)!) : String(v)
const sortedKeys = (m: List | undefined) => Object.keys(m ?? {}).sort(compareUtf8)

/** The ranges in the order admission reads them (by name: the lister's order is the informer's). */
export const byName = (ranges: KubeObject[]) =>
  (ranges as LimitRange[]).slice().sort((a, b) => compareUtf8(a.metadata?.name ?? '', b.metadata?.name ?? ''))

/** defaultContainerResourceRequirements: the last Container item's default requests and limits. */
function containerDefaults(lr: LimitRange): { requests: List; limits: List } {
  const requests: List = {}
  const limits: List = {}
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue
    Object.assign(requests, item.defaultRequest ?? {})
    Object.assign(limits, item.default ?? {})
  }
  return { requests, limits }
}

/** mergeContainerResources: fills what the container leaves out; answers the annotation's phrases. */
function mergeContainer(c: Container, d: { requests: List; limits: List }, kind: string, notes: string[]) {
  const setLimits: string[] = []
  const setRequests: string[] = []
  for (const [k, v] of Object.entries(d.limits)) {
    if (c.resources?.limits?.[k] !== undefined) continue
    c.resources ??= {}
    c.resources.limits = { ...c.resources.limits, [k]: v }
    setLimits.push(k)
  }
  for (const [k, v] of Object.entries(d.requests)) {
    if (c.resources?.requests?.[k] !== undefined) continue
    c.resources ??= {}
    c.resources.requests = { ...c.resources.requests, [k]: v }
    setRequests.push(k)
  }
  if (setRequests.length) notes.push(`${setRequests.sort(compareUtf8).join(', ')} request for ${kind} ${c.name}`)
  if (setLimits.length) notes.push(`${setLimits.sort(compareUtf8).join(', ')} limit for ${kind} ${c.name}`)
}

/** Admit (PodMutateLimitFunc for each range): defaults into the pod, and the annotation saying what was set. */
export function defaultPodResources(pod: PodObject, ranges: KubeObject[]): void {
  for (const lr of byName(ranges)) {
    const defaults = containerDefaults(lr)
    const notes: string[] = []
    for (const c of pod.spec?.containers ?? []) mergeContainer(c, defaults, 'container', notes)
    for (const c of pod.spec?.initContainers ?? []) mergeContainer(c, defaults, 'init container', notes)
    if (notes.length) {
      pod.metadata.annotations = {
        ...pod.metadata.annotations,
        [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}`,
      }
    }
  }
}

/** requestLimitEnforcedValues: milli-units when all three fit, whole units otherwise. */
function enforcedValues(req: Q | undefined, lim: Q | undefined, enforced: Q): [bigint, bigint, bigint] {
  const v = (x: Q | undefined, scale: number) => (x === undefined ? 0n : (quantityScaledValue(x, scale) ?? 0n))
  const [r, l, e] = [v(req, 0), v(lim, 0), v(enforced, 0)]
  if (r <= MAX_MILLI_VALUE && l <= MAX_MILLI_VALUE && e <= MAX_MILLI_VALUE)
    return [v(req, -3), v(lim, -3), v(enforced, -3)]
  return [r, l, e]
}

function minConstraint(type: string, name: string, enforced: Q, requests: Map<string, Q>, limits: Map<string, Q>) {
  const req = requests.get(name)
  const lim = limits.get(name)
  const [r, l, e] = enforcedValues(req, lim, enforced)
  if (req === undefined) return `minimum ${name} usage per ${type} is ${str(enforced)}.  No request is specified`
  if (r < e) return `minimum ${name} usage per ${type} is ${str(enforced)}, but request is ${str(req)}`
  if (lim !== undefined && l < e)
    return `minimum ${name} usage per ${type} is ${str(enforced)}, but limit is ${str(lim)}`
  return null
}

function maxConstraint(type: string, name: string, enforced: Q, requests: Map<string, Q>, limits: Map<string, Q>) {
  const req = requests.get(name)
  const lim = limits.get(name)
  const [r, l, e] = enforcedValues(req, lim, enforced)
  if (lim === undefined) return `maximum ${name} usage per ${type} is ${str(enforced)}.  No limit is specified`
  if (l > e) return `maximum ${name} usage per ${type} is ${str(enforced)}, but limit is ${str(lim)}`
  if (req !== undefined && r > e)
    return `maximum ${name} usage per ${type} is ${str(enforced)}, but request is ${str(req)}`
  return null
}

/** maxRequestConstraint: a claim's max judges its request (claims state no limits). */
function maxRequestConstraint(type: string, name: string, enforced: Q, requests: Map<string, Q>) {
  const req = requests.get(name)
  const [r, , e] = enforcedValues(req, undefined, enforced)
  if (req === undefined) return `maximum ${name} usage per ${type} is ${str(enforced)}.  No request is specified`
  if (r > e) return `maximum ${name} usage per ${type} is ${str(enforced)}, but request is ${str(req)}`
  return null
}

function ratioConstraint(type: string, name: string, enforced: Q, requests: Map<string, Q>, limits: Map<string, Q>) {
  const req = requests.get(name)
  const lim = limits.get(name)
  const [r, l] = enforcedValues(req, lim, enforced)
  if (req === undefined || r === 0n)
    return `${name} max limit to request ratio per ${type} is ${str(enforced)}, but no request is specified or request is 0`
  if (lim === undefined || l === 0n)
    return `${name} max limit to request ratio per ${type} is ${str(enforced)}, but no limit is specified or limit is 0`
  let observed = Number(l) / Number(r)
  const display = observed
  const value = quantityScaledValue(enforced, 0) ?? 0n
  let max = Number(value)
  if (value <= MAX_MILLI_VALUE) {
    observed *= 1000
    max = Number(quantityScaledValue(enforced, -3) ?? 0n)
  }
  if (observed > max)
    return `${name} max limit to request ratio per ${type} is ${str(enforced)}, but provided ratio is ${display.toFixed(6)}`
  return null
}

const mapOf = (list: List | undefined) => new Map<string, Q>(Object.entries(list ?? {}))

/** utilerrors.NewAggregate(errs).Error(): one message alone, several deduplicated in brackets. */
function aggregate(errs: (string | null)[]): string | null {
  const seen = [...new Set(errs.filter((e): e is string => e !== null))]
  if (seen.length === 0) return null
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`
}

function judge(
  type: string,
  item: NonNullable<LimitRange['spec']>['limits'],
  reqs: Map<string, Q>,
  lims: Map<string, Q>,
) {
  const errs: (string | null)[] = []
  const it = item as unknown as { min?: List; max?: List; maxLimitRequestRatio?: List }
  for (const k of sortedKeys(it.min)) errs.push(minConstraint(type, k, it.min![k]!, reqs, lims))
  for (const k of sortedKeys(it.max)) errs.push(maxConstraint(type, k, it.max![k]!, reqs, lims))
  for (const k of sortedKeys(it.maxLimitRequestRatio))
    errs.push(ratioConstraint(type, k, it.maxLimitRequestRatio![k]!, reqs, lims))
  return errs
}

/** Validate (PodValidateLimitFunc for each range, in order): the first range the pod breaks answers why. */
export function validatePodResources(pod: PodObject, ranges: KubeObject[]): string | null {
  for (const lr of byName(ranges)) {
    const errs: (string | null)[] = []
    for (const item of lr.spec?.limits ?? []) {
      if (item.type === 'Container') {
        for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])])
          errs.push(...judge('Container', item as never, mapOf(c.resources?.requests), mapOf(c.resources?.limits)))
      }
      if (item.type === 'Pod') {
        const reqs = new Map<string, Q>(podTotals(pod, 'requests', false))
        const lims = new Map<string, Q>(podTotals(pod, 'limits', false))
        errs.push(...judge('Pod', item as never, reqs, lims))
      }
    }
    const refused = aggregate(errs)
    if (refused) return refused
  }
  return null
}

type ClaimLike = KubeObject & { spec?: { resources?: { requests?: List } } }

/** PersistentVolumeClaimValidateLimitFunc for each range: min and max of what the claim requests. */
export function validateClaimStorage(pvc: ClaimLike, ranges: KubeObject[]): string | null {
  const requests = mapOf(pvc.spec?.resources?.requests)
  for (const lr of byName(ranges)) {
    const errs: (string | null)[] = []
    for (const item of lr.spec?.limits ?? []) {
      if (item.type !== 'PersistentVolumeClaim') continue
      for (const k of sortedKeys(item.min)) errs.push(minConstraint(item.type, k, item.min![k]!, requests, new Map()))
      for (const k of sortedKeys(item.max)) errs.push(maxRequestConstraint(item.type, k, item.max![k]!, requests))
    }
    const refused = aggregate(errs)
    if (refused) return refused
  }
  return null
}
