// A pod's quality-of-service class (kube's qos.ComputePodQOS), written into status.qosClass when the pod is created.
import { parseQuantity, type ParsedQuantity } from '../../../schema/quantity'
import { addQuantities, cmpQuantity, ZERO } from './pod-validation-quantities'
import type { PodObject, PodQOSClass } from './pod-types'

/**
 * qos.ComputePodQOS: BestEffort without any positive cpu or memory request or limit; Guaranteed when every regular and
 * init container limits both cpu and memory and the summed requests equal the summed limits exactly; else Burstable.
 * Comparisons are exact (no float rounding: 100m against 200m is Burstable).
 */
export function podQOS(pod: Pick<PodObject, 'spec'>): PodQOSClass {
  const requests = new Map<string, ParsedQuantity>()
  const limits = new Map<string, ParsedQuantity>()
  let guaranteed = true
  const add = (into: Map<string, ParsedQuantity>, name: string, q: ParsedQuantity) =>
    into.set(name, into.has(name) ? addQuantities(into.get(name)!, q) : q)
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    for (const [name, value] of Object.entries(c.resources?.requests ?? {})) {
      if (name !== 'cpu' && name !== 'memory') continue
      const q = parseQuantity(value)
      if (q && cmpQuantity(q, ZERO) === 1) add(requests, name, q)
    }
    const found = new Set<string>()
    for (const [name, value] of Object.entries(c.resources?.limits ?? {})) {
      if (name !== 'cpu' && name !== 'memory') continue
      const q = parseQuantity(value)
      if (q && cmpQuantity(q, ZERO) === 1) {
        found.add(name)
        add(limits, name, q)
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort'
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name)
      if (!lim || cmpQuantity(lim, req) !== 0) {
        guaranteed = false
        break
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable'
}
