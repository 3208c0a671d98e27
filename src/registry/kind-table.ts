// The kinds served, as data looked up at request time: the built-in rows of resources.ts, and kinds that arrive
// while the server runs (CustomResourceDefinitions, src/registry/custom/) through replace(). Routes, discovery,
// OpenAPI, decoding and the hosts all ask this table, so a kind added later needs no new code path.
import { resourceKey, type ResourceDef } from './resource'

export class KindTable {
  /** Every served group/version/plural. A kind served in several versions has a row per version. */
  private readonly rows = new Map<string, ResourceDef>()
  /**
   * What hosts are asked for → the stored row: a built-in plural (unique across groups) or a custom resource's
   * `<plural>.<group>`; the hot path's lookup. Only stored rows are indexed (a version served but not stored is not).
   */
  private readonly resources = new Map<string, ResourceDef>()
  private changes = 0

  constructor(builtIns: readonly ResourceDef[]) {
    this.replace(() => false, builtIns)
  }

  private static key(group: string, version: string, plural: string) {
    return `${group}/${version}/${plural}`
  }

  /** Adds or replaces a kind's row. */
  register(def: ResourceDef) {
    this.replace(() => false, [def])
  }

  /** Removes every version of a kind. */
  unregister(group: string, plural: string) {
    this.replace((def) => def.group === group && def.plural === plural, [])
  }

  /** Removes the rows `remove` selects and adds `add`, as one change of the table (one revision). */
  replace(remove: (def: ResourceDef) => boolean, add: readonly ResourceDef[]) {
    let changed = add.length > 0
    for (const [key, def] of this.rows) {
      if (!remove(def)) continue
      this.rows.delete(key)
      changed = true
    }
    for (const def of add) this.rows.set(KindTable.key(def.group, def.version, def.plural), def)
    if (!changed) return
    this.resources.clear()
    for (const def of this.rows.values()) {
      const key = resourceKey(def)
      if (def.storage !== false && !this.resources.has(key)) this.resources.set(key, def)
    }
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
    return this.rows.get(KindTable.key(group, version, plural))
  }

  /** The row of `def`'s kind served in `version` (a custom resource's other versions), if it is served. */
  inVersion(def: ResourceDef, version: string): ResourceDef | undefined {
    return version === def.version ? def : this.served(def.group, version, def.plural)
  }

  /**
   * A kind by what hosts are asked for (its plural, or a custom resource's `<plural>.<group>`), or by its plural
   * in `group` when given.
   */
  byPlural(plural: string, group?: string): ResourceDef | undefined {
    if (group === undefined) return this.resources.get(plural)
    for (const def of this.rows.values()) if (def.group === group && def.plural === plural) return def
    return undefined
  }

  /**
   * The kind served as `kind` in group/version (an ownerReference's apiVersion and kind), as a RESTMapper maps a
   * GroupVersionKind: the group tells apart kinds of the same name (Widget in two groups, a custom Deployment).
   */
  byGroupVersionKind(group: string, version: string, kind: string): ResourceDef | undefined {
    for (const def of this.rows.values())
      if (def.group === group && def.version === version && def.kind === kind) return def
    return undefined
  }
}
