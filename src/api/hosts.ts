// Reaching the Durable Object that owns a kind's objects, through the one typed interface both hosts serve, with
// infrastructure failures turned into 503 Status.
import type { GraphEdgeRow } from '../host/object-store'
import type { WriteInput } from '../host/rpc-json'
import type { ListQuery, PatchOptions, PatchType, Snapshot, WriteAnswer, WriteOptions } from '../host/rpc-types'
import type { ListPage } from '../registry/list'
import type { ResourceDef } from '../registry/resource'
import { statuses, type Result } from '../registry/status'
import type { DeleteOptions, KubeObject } from '../schema/meta'

/** The verbs every host serves (src/namespace/namespace-object.ts, src/cluster/cluster-object.ts), and its watch socket. */
export interface HostApi {
  get(resource: string, name: string, minRv?: number): Promise<Result<KubeObject>>
  list(resource: string, q: ListQuery): Promise<Result<ListPage>>
  snapshot(resources: string[], since?: number): Promise<Snapshot>
  /** The Node authorizer's graph edges leaving a vertex (src/identity/node-graph.ts). */
  graphEdgesFrom(type: string, namespace: string, name: string, node?: string): Promise<GraphEdgeRow[]>
  create(resource: string, obj: WriteInput, opts: WriteOptions): Promise<Result<WriteAnswer>>
  update(resource: string, name: string, obj: WriteInput, opts: WriteOptions): Promise<Result<WriteAnswer>>
  patch(resource: string, name: string, type: PatchType, body: string, opts: PatchOptions): Promise<Result<WriteAnswer>>
  delete(resource: string, name: string, options: DeleteOptions, opts: WriteOptions): Promise<Result<WriteAnswer>>
  deleteCollection(
    resource: string,
    q: ListQuery,
    options: DeleteOptions,
    opts: WriteOptions,
  ): Promise<Result<ListPage>>
  fetch(request: Request | string, init?: RequestInit): Promise<Response>
}

export function hostFor(env: Env, def: ResourceDef, namespace: string): HostApi {
  return def.home === 'cluster' ? env.CLUSTER.getByName('cluster') : env.NAMESPACES.getByName(namespace)
}

/** Calls a host; a thrown RPC error (object overloaded, reset, unreachable) becomes a retryable 503. */
export async function call<T>(fn: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await fn()
  } catch (e) {
    console.error('durable object call failed', e)
    const s = statuses.serviceUnavailable(
      `the storage for this request is temporarily unavailable: ${e instanceof Error ? e.message : String(e)}`,
    )
    s.details = { retryAfterSeconds: 1 }
    return { ok: false, status: s }
  }
}
