// The hostile sweep's view of what the server serves: the resources and subresources discovery lists (/api/v1, /apis
// and each group-version's APIResourceList), read at run time so kinds added later are swept without edits here.
import { req } from '../../helpers'

export interface Subresource {
  name: string
  /** The kind the subresource takes and answers (Scale, Eviction, TokenRequest, ...). */
  kind: string
  verbs: string[]
}

export interface Served {
  /** `v1`, `apps/v1`, ... */
  groupVersion: string
  /** `/api/v1` or `/apis/<group>/<version>`. */
  root: string
  resource: string
  kind: string
  namespaced: boolean
  verbs: string[]
  subresources: Subresource[]
  /** A custom resource (set by the test that installs its CRD): no strategic merge patch, schema errors are 422s. */
  custom?: boolean
}

/** Every group-version root discovery names. */
async function groupVersionRoots(): Promise<string[]> {
  const roots = ['/api/v1']
  const apis = await req('GET', '/apis')
  if (apis.status !== 200) throw new Error(`GET /apis: ${apis.status} ${apis.text}`)
  for (const g of apis.json.groups) for (const v of g.versions) roots.push(`/apis/${v.groupVersion}`)
  return roots
}

/** The resources every group-version serves, each with the subresources listed beside it. */
export async function servedResources(): Promise<Served[]> {
  const out: Served[] = []
  for (const root of await groupVersionRoots()) {
    const list = await req('GET', root)
    if (list.status !== 200) throw new Error(`GET ${root}: ${list.status} ${list.text}`)
    const byName = new Map<string, Served>()
    for (const r of list.json.resources) {
      if (r.name.includes('/')) continue
      const s: Served = {
        groupVersion: list.json.groupVersion,
        root,
        resource: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs,
        subresources: [],
      }
      byName.set(r.name, s)
      out.push(s)
    }
    for (const r of list.json.resources) {
      if (!r.name.includes('/')) continue
      const [parent, sub] = r.name.split('/')
      byName.get(parent)?.subresources.push({ name: sub, kind: r.kind, verbs: r.verbs })
    }
  }
  return out
}

/** The collection path of a resource (in `ns` when it is namespaced). */
export function collection(s: Served, ns: string): string {
  return s.namespaced ? `${s.root}/namespaces/${ns}/${s.resource}` : `${s.root}/${s.resource}`
}

/** Whether objects of the resource are stored (reviews and other create-only kinds are not). */
export const stored = (s: Served) => s.verbs.includes('get')

/**
 * The cases one kind of many runs: every kind-specific case, and a third of the generic ones (by `slot`, the kind's
 * place in the sweep), so each generic case still meets a third of the kinds. A null slot runs them all.
 */
export function share<T extends { generic?: boolean }>(cases: T[], slot: number | null): T[] {
  if (slot === null) return cases
  let g = 0
  return cases.filter((c) => !c.generic || (g++ + slot) % 3 === 0)
}
