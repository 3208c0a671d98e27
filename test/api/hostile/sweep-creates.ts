// The create sweep of one resource: every hostile create body (bodies.ts) POSTed to its collection, each under a
// name of its own; afterwards none of the refused names may exist.
import { createCases } from './bodies'
import { nameFor, validObject } from './fixtures'
import type { Findings } from './refusal'
import { send } from './refusal'
import { collection, type Served, share, stored } from './served'

/**
 * Kinds whose names kube checks only as path segments (ValidateRBACName; the generic registry's BeforeCreate, all a
 * core/v1 Event gets).
 */
const PATH_SEGMENT_NAMES = new Set([
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'PodDisruptionBudget',
  'Event',
])

let serial = 0

/** `slot`: the kind's place in a sweep of many (a share of the generic cases), null for all of them. */
export async function sweepCreates(s: Served, ns: string, findings: Findings, slot: number | null = null) {
  const path = collection(s, ns)
  const refusedNames: string[] = []
  const named = stored(s)
  const example = validObject(s.groupVersion, s.kind, 'x', ns) ?? {
    apiVersion: s.groupVersion,
    kind: s.kind,
    metadata: named ? { name: 'x' } : {},
  }
  const traits = { named, namespaced: s.namespaced, pathSegmentNames: PATH_SEGMENT_NAMES.has(s.kind) }
  for (const c of share(createCases(example, traits), slot)) {
    // Each case under a name of its own, so what a refused create might leave behind is told apart.
    const name = nameFor(s.kind, `hostile-${(serial++).toString(36)}-${Date.now().toString(36)}`)
    let body = c.body
    if (named && typeof body === 'object' && !(body instanceof Uint8Array) && body.metadata?.name === 'x') {
      body = { ...body, metadata: { ...body.metadata, name } }
      // A CRD's name is made of its spec: the spec follows the name.
      const fresh = validObject(s.groupVersion, s.kind, name, ns)
      if (s.kind === 'CustomResourceDefinition' && fresh) body = { ...body, spec: fresh.spec }
    }
    const id = `${s.resource} create ${c.id}`
    const r = await findings.send(id, 'POST', path + (c.query ?? ''), body, c.headers ?? {}, c.want)
    if (r.status < 200 || r.status >= 300) refusedNames.push(name)
  }
  if (!named) return
  const list = await send('GET', path)
  const left = (list.json?.items ?? []).map((o: any) => o.metadata.name).filter((n: string) => refusedNames.includes(n))
  if (left.length > 0) findings.add(`${s.resource} create half-written`, `refused creates left ${left.join(', ')}`)
}
