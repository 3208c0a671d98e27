// Reaching the Durable Object that owns a kind's objects, with infrastructure failures turned into 503 Status.
import type { ResourceDef } from '../registry/resource'
import { statuses, type Result } from '../registry/status'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import type { ListPage } from '../registry/list'
import type { ListQuery, PatchOptions, PatchType, WriteAnswer, WriteOptions } from '../host/store-host'

/** The RPC surface both hosts share (see host/store-host.ts), as the Worker sees it. */
export interface HostStub {
  get(resource: string, name: string, minRv?: number): Promise<Result<KubeObject>>
  list(resource: string, q: ListQuery): Promise<Result<ListPage>>
  create(resource: string, obj: KubeObject, opts: WriteOptions): Promise<Result<WriteAnswer>>
  update(resource: string, name: string, obj: KubeObject, opts: WriteOptions): Promise<Result<WriteAnswer>>
  patch(resource: string, name: string, type: PatchType, body: string, opts: PatchOptions): Promise<Result<WriteAnswer>>
  delete(resource: string, name: string, options: DeleteOptions, opts: WriteOptions): Promise<Result<WriteAnswer>>
  deleteCollection(resource: string, q: ListQuery, options: DeleteOptions, opts: WriteOptions): Promise<Result<ListPage>>
  fetch(request: RequestInfo | URL, init?: RequestInit): Promise<Response>
}

export function hostFor(env: Env, def: ResourceDef, namespace: string): HostStub {
  if (def.home === 'cluster') return env.CLUSTER.getByName('cluster') as unknown as HostStub
  return env.NAMESPACES.getByName(namespace) as unknown as HostStub
}

/** Calls a host; a thrown RPC error (object overloaded, reset, unreachable) becomes a retryable 503. */
export async function call<T>(fn: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await fn()
  } catch (e) {
    console.error('durable object call failed', e)
    const s = statuses.serviceUnavailable(`the storage for this request is temporarily unavailable: ${e instanceof Error ? e.message : String(e)}`)
    s.details = { retryAfterSeconds: 1 }
    return { ok: false, status: s }
  }
}
