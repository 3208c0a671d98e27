// What a write carries about its requester into the host, and what this isolate forgets after it: the two places
// where the verb handlers meet the access decision (src/identity/access.ts).
import type { Context } from 'hono'
import type { Requester } from '../host/rpc-types'
import { nodeIdentity } from '../identity/node-authorizer'
import type { RequestingNode } from '../registry/admission/node-restriction'
import { customKinds } from '../registry/custom/custom-kinds'
import { resourceKey, type ResourceDef } from '../registry/resource'

type Ctx = Context<{ Bindings: Env }>

/**
 * What a write carries of its requester: `requester` for kinds whose strategy judges the writer (RBAC), and `node` for
 * every write by a node's own identity, which NodeRestriction judges (with its Node's uid for a pod it may create).
 */
export async function requesterOption(
  c: Ctx,
  def: ResourceDef,
): Promise<{ requester?: Requester; node?: RequestingNode }> {
  const access = c.get('access')
  const requester = await access.authorizer.requester(access.user, def)
  const identity = nodeIdentity(access.user)
  if (!identity.isNode) return requester ? { requester } : {}
  const node: RequestingNode = { user: access.user.name, node: identity.node }
  // A mirror pod's owner must be the node's Node as it is (kube reads its informer cache): looked up for what may
  // create a pod (a POST, a server-side apply), not for its frequent status writes.
  const apply = c.req.method === 'PATCH' && (c.req.header('content-type') ?? '').startsWith('application/apply-patch')
  const creates = (c.req.method === 'POST' || apply) && !new URL(c.req.url).pathname.endsWith('/status')
  if (identity.node && resourceKey(def) === 'pods' && creates)
    node.nodeUid = (await access.live.node(identity.node))?.uid ?? null
  return { ...(requester ? { requester } : {}), node }
}

/** A write went through: the isolate's copies it may have outdated (RBAC objects, token subjects) are checked again. */
export function noteWrite(c: Ctx, def: ResourceDef, namespace: string, name?: string) {
  const access = c.get('access')
  access.authorizer.noteWrite(resourceKey(def), namespace)
  access.live.noteWrite(resourceKey(def), namespace, name)
  if (resourceKey(def) === 'customresourcedefinitions') customKinds.invalidate()
}
