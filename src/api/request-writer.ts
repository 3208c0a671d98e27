// What a write carries about its requester into the host, and what this isolate forgets after it: the two places
// where the verb handlers meet the access decision (src/identity/access.ts).
import type { Context } from 'hono'
import type { Requester } from '../host/rpc-types'
import { customKinds } from '../registry/custom/custom-kinds'
import { resourceKey, type ResourceDef } from '../registry/resource'

type Ctx = Context<{ Bindings: Env }>

/** `{ requester }` for writes of kinds whose strategy judges the writer (RBAC), else nothing. */
export async function requesterOption(c: Ctx, def: ResourceDef): Promise<{ requester?: Requester }> {
  const access = c.get('access')
  const requester = await access.authorizer.requester(access.user, def)
  return requester ? { requester } : {}
}

/** A write went through: the isolate's copies it may have outdated (RBAC objects, token subjects) are checked again. */
export function noteWrite(c: Ctx, def: ResourceDef, namespace: string, name?: string) {
  const access = c.get('access')
  access.authorizer.noteWrite(resourceKey(def), namespace)
  access.live.noteWrite(resourceKey(def), namespace, name)
  if (resourceKey(def) === 'customresourcedefinitions') customKinds.invalidate()
}
