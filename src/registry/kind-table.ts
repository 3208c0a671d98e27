// The kinds served, as data looked up at request time: the built-in rows of resources.ts now, and kinds that arrive
// while the server runs (CustomResourceDefinitions) through register(). Routes, discovery, OpenAPI, decoding and the
// hosts all ask this table, so a kind added later needs no new code path.
import type { ResourceDef } from './resource'

export class KindTable {
  private readonly rows = new Map<string, ResourceDef>()
  /** plural → the kind of the first group serving it (built-in plurals are unique); the hot path's lookup. */
  private readonly plurals = new Map<string, ResourceDef>()
  private changes = 0

  constructor(builtIns: readonly ResourceDef[]) {
    for (const def of builtIns) this.register(def)
  }

  private static key(group: string, plural: string) {
    return `${group}/${plural}`
  }

  /** Adds or replaces a kind. */
  register(def: ResourceDef) {
    this.rows.set(KindTable.key(def.group, def.plural), def)
    this.reindex()
  }

  unregister(group: string, plural: string) {
    if (this.rows.delete(KindTable.key(group, plural))) this.reindex()
  }

  private reindex() {
    this.plurals.clear()
    for (const def of this.rows.values()) if (!this.plurals.has(def.plural)) this.plurals.set(def.plural, def)
    this.changes++
  }

  /** Bumps on every change, so what is derived from the table (discovery, OpenAPI) knows to rebuild. */
  get revision(): number {
    return this.changes
  }

  all(): ResourceDef[] {
    return [...this.rows.values()]
  }

  /** The kind served at /api(s)/<group>/<version>/<plural>. */
  served(group: string, version: string, plural: string): ResourceDef | undefined {
    const def = this.rows.get(KindTable.key(group, plural))
    return def && def.version === version ? def : undefined
  }

  /** A kind by its plural (in `group` when given; built-in plurals are unique across groups). */
  byPlural(plural: string, group?: string): ResourceDef | undefined {
    if (group !== undefined) return this.rows.get(KindTable.key(group, plural))
    return this.plurals.get(plural)
  }

  /** A namespaced kind by its Kind name (ownerReferences name kinds, not resources). */
  namespacedByKind(kind: string): ResourceDef | undefined {
    for (const def of this.rows.values()) if (def.kind === kind && def.namespaced) return def
    return undefined
  }
}
