// Custom resources as rows of this isolate's kind table, kept in step with the CustomResourceDefinitions the cluster
// Durable Object stores. Every isolate (the Worker's and each Durable Object's) holds a copy: an established CRD's
// rows are built once per generation, names and condition set, and the copy is revalidated with a conditional
// snapshot (ObjectHost.snapshot: "unchanged" when the version held is current), the pattern the RBAC cache uses.
// A copy serves for a second; a kind this isolate does not know yet (a request for it, a host asked about it) is
// looked up at once, so a CRD is served everywhere as soon as it is Established; a CRD written through this isolate
// drops the copy. The cluster object reads its own objects, so its copy is always current.
import type { KubeObject } from '../../schema/meta'
import { isConditionTrue } from '../crd/crd-naming'
import type { Crd } from '../crd/json-schema'
import type { ResourceDef } from '../resource'
import { kinds } from '../resources'
import { customResourceRows } from './custom-rows'

const CRDS = 'customresourcedefinitions'
/** How long a copy is used without asking whether it changed. */
const FRESH_MS = 1000

/** Whether a resource key may name a custom resource (`<plural>.<group>`); built-in plurals have no dot. */
export const isCustomResourceKey = (resource: string) => resource.includes('.')

/** An apiVersion's group and version (`v1` is the core group's), as schema.ParseGroupVersion splits it. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/')
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) }
}

/** What answers for the CRDs: the cluster object (through RPC, or its own host). */
interface CrdSource {
  snapshot(
    resources: string[],
    since?: number,
  ):
    | { version: number; objects: Record<string, KubeObject[]> | null }
    | Promise<{ version: number; objects: Record<string, KubeObject[]> | null }>
}

/** kube's storage version hash: the first 8 bytes of SHA-256 over group/version/kind, base64. */
async function storageVersionHash(group: string, version: string, kind: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${group}/${version}/${kind}`))
  return btoa(String.fromCharCode(...new Uint8Array(digest).slice(0, 8)))
}

/** What a CRD's rows depend on: its spec (generation), accepted names and the conditions that gate serving. */
const buildKey = (crd: Crd) =>
  JSON.stringify([
    crd.metadata.uid,
    crd.metadata.generation,
    crd.status?.acceptedNames,
    !!crd.metadata.deletionTimestamp,
  ])

class CustomKinds {
  private version = -1
  private checkedAt = Number.NEGATIVE_INFINITY
  private pending: { startedAt: number; done: Promise<void> } | null = null
  private readonly built = new Map<string, { key: string; rows: ResourceDef[] }>()
  private readonly owned = new WeakSet<ResourceDef>()
  constructor(private readonly clock: () => number = Date.now) {}

  /** Whether a row was made from a CRD (and so is replaced when the CRDs change). */
  isCustom(def: ResourceDef): boolean {
    return this.owned.has(def)
  }

  /**
   * Brings the table up to date enough: a copy checked at or after `notBefore` (default: within the last second).
   * Answers nothing when the held copy will do, so the common path does not even await.
   */
  ensure(source: CrdSource, notBefore?: number): Promise<void> | undefined {
    const wanted = notBefore ?? this.clock() - FRESH_MS
    if (this.checkedAt >= wanted) return undefined
    if (this.pending && this.pending.startedAt >= wanted) return this.pending.done
    return this.refresh(source)
  }

  /**
   * Before a host serves `resource`: a custom resource key (`<plural>.<group>`) it does not know is looked up at
   * once; one it knows is checked as ensure() checks. Built-in plurals (no dot) need nothing.
   */
  know(resource: string, source: CrdSource): Promise<void> | undefined {
    if (!isCustomResourceKey(resource)) return undefined
    return this.ensure(source, kinds.byPlural(resource) ? undefined : this.clock())
  }

  /**
   * Whether the kind `apiVersion`/`kind` name may be a custom resource's this isolate has not loaded: it is not in
   * the table and its group has a dot (a CRD's group must; the core group and apps, batch... have none).
   */
  mayKnowKindOf(apiVersion: string, kind: string): boolean {
    const { group, version } = parseApiVersion(apiVersion)
    return group.includes('.') && !kinds.byGroupVersionKind(group, version, kind)
  }

  /** Before resolving `apiVersion`/`kind` (an ownerReference): a kind this isolate does not know is looked up at once. */
  knowKindOf(apiVersion: string, kind: string, source: CrdSource): Promise<void> | undefined {
    return this.mayKnowKindOf(apiVersion, kind) ? this.ensure(source, this.clock()) : undefined
  }

  /** A CRD was written through this isolate: the next request asks again. */
  invalidate() {
    this.checkedAt = Number.NEGATIVE_INFINITY
  }

  private refresh(source: CrdSource): Promise<void> {
    const startedAt = this.clock()
    const done = (async () => {
      const snap = await source.snapshot([CRDS], this.version >= 0 ? this.version : undefined)
      if (snap.objects) await this.apply((snap.objects[CRDS] ?? []) as unknown as Crd[])
      this.version = snap.version
      if (this.checkedAt < startedAt) this.checkedAt = startedAt
    })()
    const entry = { startedAt, done }
    this.pending = entry
    const clear = () => {
      if (this.pending === entry) this.pending = null
    }
    done.then(clear, (e: unknown) => {
      clear()
      console.error('custom resource definitions could not be read', e)
    })
    return done.catch(() => undefined)
  }

  /** Rebuilds the table's custom rows from every CRD (rows of unchanged CRDs are reused). */
  private async apply(crds: Crd[]) {
    const rows: ResourceDef[] = []
    const seen = new Set<string>()
    for (const crd of crds) {
      if (!isConditionTrue(crd, 'Established')) continue
      const name = crd.metadata.name ?? ''
      seen.add(name)
      const key = buildKey(crd)
      let entry = this.built.get(name)
      if (entry?.key !== key) {
        try {
          const storage = crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name ?? ''
          const names = crd.status?.acceptedNames ?? crd.spec.names
          const hash = await storageVersionHash(crd.spec.group, storage, names.kind)
          const built = customResourceRows(crd, hash)
          // A CRD being deleted takes no new objects (kube: create is not allowed while it terminates).
          if (crd.metadata.deletionTimestamp) for (const r of built) r.verbs = r.verbs.filter((v) => v !== 'create')
          entry = { key, rows: built }
          this.built.set(name, entry)
          for (const r of built) this.owned.add(r)
        } catch (e) {
          console.error(`custom resource definition ${name} could not be served`, e)
          continue
        }
      }
      rows.push(...entry.rows)
    }
    for (const name of [...this.built.keys()]) if (!seen.has(name)) this.built.delete(name)
    const current = kinds.all().filter((def) => this.owned.has(def))
    // A CRD's status moving (a condition's time) rebuilds nothing: the table, and what derives from it, stay.
    if (current.length === rows.length && rows.every((r, i) => current[i] === r)) return
    kinds.replace((def) => this.owned.has(def), rows)
  }
}

/** This isolate's custom kinds. */
export const customKinds = new CustomKinds()
