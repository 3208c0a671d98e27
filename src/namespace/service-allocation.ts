// The namespace side of service allocation: what a planned service change must reserve from the cluster object's
// allocators before it commits (filled into the planned object, undone if it does not commit), and what a committed
// change frees (type changes, deletion). Owner of every value: `<namespace>/<name>/<uid>`.
import type { Change } from '../registry/store'
import type { LogEntry } from '../registry/store'
import { statuses, type Status } from '../registry/status'
import { fieldError, type FieldError } from '../registry/field-errors'
import { goQuote } from '../registry/go-strings'
import { invalidGo } from '../registry/strategies/pod/pod-validation-formats'
import type { ServiceObject } from '../registry/strategies/service/service-types'
import {
  isHeadless,
  needsClusterIP,
  needsHealthCheck,
  needsNodePort,
  shouldAllocateNodePorts,
} from '../registry/strategies/service/service-types'
import { holdingsOf, ownerOf } from '../registry/strategies/service/service-holdings'
import type {
  Allocated,
  AllocationFailure,
  AllocationRequest,
  ReserveAnswer,
} from '../cluster/allocators/allocation-types'

/** The cluster object's allocator verbs, as a namespace host calls them. */
interface AllocatorStub {
  reserve(owner: string, request: AllocationRequest, dryRun: boolean): Promise<ReserveAnswer>
  release(owner: string, what: Allocated | null): Promise<unknown>
}

const none = (): Allocated => ({ clusterIPs: [], nodePorts: [] })
const isEmpty = (a: Allocated) => a.clusterIPs.length === 0 && a.nodePorts.length === 0

const minus = (a: Allocated, b: Allocated): Allocated => ({
  clusterIPs: a.clusterIPs.filter((v) => !b.clusterIPs.includes(v)),
  nodePorts: a.nodePorts.filter((v) => !b.nodePorts.includes(v)),
})

/** Where the n-th requested node port goes. */
type PortTarget = { port: number } | { healthCheck: true }

interface AllocationPlan {
  request: AllocationRequest
  /** Writes the answer into the planned object. */
  fill(answer: Allocated): void
  /** The Status a refused request becomes, in kube's words. */
  refusal(f: AllocationFailure): Status
}

/**
 * What `next` needs beyond what `prev` (the same service before the change; null on create) already holds: cluster
 * IPs unless headless or ExternalName; node ports for NodePort and LoadBalancer (ports with the same number share one,
 * as kube's initNodePorts does); a health-check port for LoadBalancer with the Local policy.
 */
export function planAllocation(next: ServiceObject, prev: ServiceObject | null): AllocationPlan {
  const held = holdingsOf(prev)
  const spec = next.spec
  const request: AllocationRequest = { clusterIPs: [], nodePorts: [] }
  const ipSlots: number[] = []
  if (needsClusterIP(next) && !isHeadless(next)) {
    const wanted = spec.clusterIPs?.length ? spec.clusterIPs : ['']
    wanted.forEach((ip, i) => {
      if (ip !== '' && held.clusterIPs.includes(ip)) return
      request.clusterIPs.push(ip)
      ipSlots.push(i)
    })
  }
  const portTargets: PortTarget[] = []
  // Per port: a fixed node port, or the index of the request that will provide one.
  const sources = new Map<number, { fixed: number } | { request: number }>()
  const ports = spec.ports ?? []
  const ask = (nodePort: number, target: PortTarget) => {
    request.nodePorts.push(nodePort)
    portTargets.push(target)
    return request.nodePorts.length - 1
  }
  if (needsNodePort(next)) {
    const byServicePort = new Map<number, { fixed: number } | { request: number }>()
    ports.forEach((p, i) => {
      if (!p.nodePort && !shouldAllocateNodePorts(next)) return
      const shared = byServicePort.get(p.port)
      if (!shared) {
        // A later port with the same number may carry the user's choice for both.
        const requested = p.nodePort || ports.find((q) => q.port === p.port && q.nodePort)?.nodePort || 0
        let source: { fixed: number } | { request: number }
        if (requested) {
          if (!held.nodePorts.includes(requested)) ask(requested, { port: i })
          source = { fixed: requested }
        } else {
          source = { request: ask(0, { port: i }) }
        }
        byServicePort.set(p.port, source)
        sources.set(i, source)
      } else if (!p.nodePort) {
        sources.set(i, shared)
      } else if (!('fixed' in shared) || p.nodePort !== shared.fixed) {
        if (!held.nodePorts.includes(p.nodePort)) ask(p.nodePort, { port: i })
        sources.set(i, { fixed: p.nodePort })
      }
    })
  }
  let healthCheckSlot: number | null = null
  if (needsHealthCheck(next)) {
    const hc = spec.healthCheckNodePort ?? 0
    if (!hc) healthCheckSlot = ask(0, { healthCheck: true })
    else if (!held.nodePorts.includes(hc)) ask(hc, { healthCheck: true })
  }
  const name = next.metadata.name ?? ''
  return {
    request,
    fill(answer) {
      if (ipSlots.length > 0) {
        const ips = [...(spec.clusterIPs?.length ? spec.clusterIPs : [''])]
        ipSlots.forEach((slot, k) => (ips[slot] = answer.clusterIPs[k]!))
        spec.clusterIPs = ips
        spec.clusterIP = ips[0]
      }
      for (const [i, source] of sources) {
        ports[i]!.nodePort = 'fixed' in source ? source.fixed : answer.nodePorts[source.request]!
      }
      if (healthCheckSlot !== null) spec.healthCheckNodePort = answer.nodePorts[healthCheckSlot]
    },
    refusal(f) {
      if (f.pool === 'ip') {
        if (f.full) return statuses.internal(`failed to allocate a serviceIP: ${f.message}`)
        const ips = `[]string{${(spec.clusterIPs ?? []).map(goQuote).join(', ')}}`
        return statuses.invalid('Service', name, [
          invalidGo('spec.clusterIPs', ips, `failed to allocate IP ${f.requested}: ${f.message}`),
        ])
      }
      const target = portTargets[f.index]!
      if ('healthCheck' in target) {
        if (f.full) return statuses.internal(`failed to allocate a HealthCheck NodePort 0: ${f.message}`)
        // kube answers 500 here; a taken or out-of-range request is the caller's mistake, so it is a 422 like the others.
        const err: FieldError = fieldError.invalid(
          'spec.healthCheckNodePort',
          f.requested,
          `failed to allocate requested HealthCheck NodePort ${f.requested}: ${f.message}`,
        )
        return statuses.invalid('Service', name, [err])
      }
      if (f.full) return statuses.internal(`failed to allocate a nodePort: ${f.message}`)
      return statuses.invalid('Service', name, [
        fieldError.invalid(`spec.ports[${target.port}].nodePort`, f.requested, f.message),
      ])
    },
  }
}

/**
 * Reserves what a planned service change needs and fills it into change.object. A dry run only checks (and shows
 * the values a real write would likely get). Deletions reserve nothing; their values are freed after commit.
 */
export async function beginServiceChange(
  allocators: AllocatorStub,
  change: Change,
  dryRun: boolean,
): Promise<{ status?: Status; rollback?: () => Promise<void> }> {
  if (change.type === 'DELETED') return {}
  const next = change.object as ServiceObject
  const plan = planAllocation(next, change.prev as ServiceObject | null)
  if (plan.request.clusterIPs.length === 0 && plan.request.nodePorts.length === 0) {
    plan.fill(none())
    return {}
  }
  const owner = ownerOf(next)
  let answer: ReserveAnswer
  try {
    answer = await allocators.reserve(owner, plan.request, dryRun)
  } catch (e) {
    console.error('reserving service allocations failed', e)
    return {
      status: statuses.serviceUnavailable(
        `the service IP and port allocators are unavailable: ${e instanceof Error ? e.message : String(e)}`,
      ),
    }
  }
  if (!answer.ok) return { status: plan.refusal(answer.failure) }
  const reserved: Allocated = { clusterIPs: answer.clusterIPs, nodePorts: answer.nodePorts }
  plan.fill(reserved)
  if (dryRun) return {}
  return {
    rollback: async () => {
      // Best effort: what a failed release leaves behind, the cluster object's repair pass frees.
      await allocators
        .release(owner, reserved)
        .catch((e: unknown) => console.error(`releasing ${owner} after a failed commit failed`, e))
    },
  }
}

/**
 * Frees what committed service changes gave up: everything of a deleted service (its owner may hold nothing else),
 * and what an update stopped using (a type change, a changed node port). Called before the writes are answered, so
 * a client that deletes a service and re-creates it with the same IP finds the IP free.
 */
export async function releaseCommitted(allocators: AllocatorStub, entries: readonly LogEntry[]): Promise<void> {
  for (const e of entries) {
    if (e.resource !== 'services') continue
    const svc = e.object as ServiceObject
    let what: Allocated | null
    if (e.type === 'DELETED') what = null
    else if (e.type === 'MODIFIED') what = minus(holdingsOf(e.prev as ServiceObject | null), holdingsOf(svc))
    else continue
    if (what && isEmpty(what)) continue
    await allocators
      .release(ownerOf(svc), what)
      .catch((err: unknown) => console.error(`releasing allocations of ${ownerOf(svc)} failed`, err))
  }
}
