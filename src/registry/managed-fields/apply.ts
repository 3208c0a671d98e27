// Server-side apply: merges an applied configuration into the live object by field ownership. Fields another
// manager owns with a different value conflict (409, one cause per field) unless forced; fields this manager applied
// before and no longer applies are removed, unless someone else also owns them. kubectl's own manager also moves
// objects over from client-side apply: it takes over what the last-applied annotation vouches for, and keeps that
// annotation in step with what it applies.
import type { z } from 'zod'
import type { KubeObject } from '../../schema/meta'
import { deepEqual, clone } from '../deep-equal'
import { own, setOwn } from '../own-fields'
import { element, field, node, type Node } from '../schema-walk'
import { rfc3339 } from '../time'
import {
  describePath,
  fieldSetOf,
  innerPathsOf,
  isAtomicMap,
  scopeToSubresource,
  itemKey,
  listKind,
  removeAt,
  splitPath,
  valueAt,
  withKeyDefaults,
  type FieldSet,
} from './field-set'
import { lastAppliedOf, lastAppliedText, setLastApplied } from './last-applied-annotation'
import { lastAppliedTakeover } from './last-applied-takeover'
import { readOwners, sameOwner, writeOwners, type ManagedEntry } from './managers'

interface ApplyConflict {
  manager: string
  operation: 'Apply' | 'Update'
  subresource?: string
  apiVersion: string
  /** As kube prints it: `.spec.containers[name="c"].image`. */
  field: string
  /** The field-set path. */
  path: string
}

type ApplyOutcome = { ok: true; object: KubeObject } | { ok: false; conflicts: ApplyConflict[] }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The manager `kubectl apply --server-side` uses unless told otherwise. kube migrates from client-side apply for it
 * alone, so that a user can opt out by naming another manager.
 */
const KUBECTL = 'kubectl'

/**
 * Merges `applied` into `live` (null: create) and returns the object with its new managedFields. `keepsStatus`: the
 * main resource owns status (a custom resource without a status subresource).
 */
export function serverSideApply(
  live: KubeObject | null,
  applied: KubeObject,
  schema: z.ZodType,
  manager: string,
  force: boolean,
  now: Date,
  subresource?: string,
  keepsStatus = false,
): ApplyOutcome {
  let outcome = applyByOwnership(live, applied, schema, manager, force, now, subresource, keepsStatus)
  if (manager !== KUBECTL) return outcome
  if (!outcome.ok && live) {
    // Conflicts over values client-side apply set and nobody has changed since are no conflicts: the apply is forced.
    // Any other conflict stands, and is then the only one reported.
    const allowed = lastAppliedTakeover(live, schema)
    if (allowed) {
      const rest = outcome.conflicts.filter((c) => !allowed.has(c.path))
      outcome =
        rest.length > 0
          ? { ok: false, conflicts: rest }
          : applyByOwnership(live, applied, schema, manager, true, now, subresource, keepsStatus)
    }
  }
  // Only an annotation already there is kept up to date (the result carries one from the live object or, on a
  // create, from the applied configuration); ownership of it does not change.
  if (outcome.ok && lastAppliedOf(outcome.object) !== undefined)
    setLastApplied(outcome.object, lastAppliedText(applied))
  return outcome
}

function applyByOwnership(
  live: KubeObject | null,
  applied: KubeObject,
  schema: z.ZodType,
  manager: string,
  force: boolean,
  now: Date,
  subresource?: string,
  keepsStatus = false,
): ApplyOutcome {
  const appliedSet = scopeToSubresource(fieldSetOf(applied, schema), subresource, keepsStatus)
  const inner = innerPathsOf(appliedSet)
  // Compared and merged with key fields at their defaults (a service port without protocol is the TCP one).
  applied = withKeyDefaults(applied, node(schema)) as KubeObject
  const owners = readOwners(live)
  const base = live ? clone(live) : ({ metadata: {} } as KubeObject)
  const conflicts: ApplyConflict[] = []
  const taken = new Map<Owner, FieldSet>()
  if (live) {
    for (const o of owners) {
      if (o.manager === manager && (o.subresource ?? '') === (subresource ?? '')) continue
      for (const p of appliedSet) {
        if (!o.set.has(p)) continue
        // A map entry or list item is owned jointly; its leaves (atomic lists included) are what can conflict.
        if (inner.has(p)) continue
        const segs = splitPath(p)
        if (deepEqual(valueAt(live, segs), valueAt(applied, segs))) continue
        conflicts.push({
          manager: o.manager,
          operation: o.operation,
          subresource: o.subresource,
          apiVersion: o.apiVersion,
          field: describePath(segs),
          path: p,
        })
        const t = taken.get(o) ?? new Set()
        t.add(p)
        taken.set(o, t)
      }
    }
  }
  if (conflicts.length > 0 && !force) return { ok: false, conflicts }

  const merged = merge(base, applied, node(schema), true) as KubeObject
  const mine = owners.find((o) => sameOwner(o, manager, 'Apply', subresource))
  if (mine) {
    const others = owners.filter((o) => o !== mine)
    // A node someone still owns something below stays too (prune's addBackOwnedItems keeps named fields with owned
    // children): an Update-recorded "." on a list the applier now applies only the items of is no reason to drop it.
    let stale = [...mine.set].filter((p) => !appliedSet.has(p) && !inner.has(p) && !others.some((o) => o.set.has(p)))
    if (stale.length > 0) {
      const othersInner = innerPathsOf(new Set(others.flatMap((o) => [...o.set])))
      stale = stale.filter((p) => !othersInner.has(p))
    }
    // Only the outermost stale path of a subtree is removed: stripping an item's key first would lose the item.
    const staleSet = new Set(stale)
    for (const p of stale) {
      const segs = splitPath(p)
      if (segs.some((_, i) => i > 0 && staleSet.has(segs.slice(0, i).join('\u0001')))) continue
      removeAt(merged, segs)
    }
  }
  for (const [o, fields] of taken) for (const p of fields) o.set.delete(p)
  const time = rfc3339(now)
  const unchanged =
    mine && setsEqual(mine.set, appliedSet) && live && deepEqual(stripManaged(merged), stripManaged(live))
  if (mine) {
    mine.set = appliedSet
    if (!unchanged) mine.time = time
  } else {
    owners.push({
      manager,
      operation: 'Apply',
      subresource,
      set: appliedSet,
      time,
      apiVersion: applied.apiVersion ?? 'v1',
    })
  }
  const entries: ManagedEntry[] | undefined = writeOwners(owners)
  if (entries) merged.metadata.managedFields = entries
  else delete merged.metadata.managedFields
  return { ok: true, object: merged }
}

type Owner = ReturnType<typeof readOwners>[number]

const setsEqual = (a: FieldSet, b: FieldSet) => a.size === b.size && [...a].every((p) => b.has(p))

function stripManaged(o: KubeObject) {
  const c = clone(o)
  delete c.metadata.managedFields
  return c
}

/** Structural merge of an applied configuration over a live value, by list type. */
function merge(live: unknown, applied: unknown, n: Node | null, root = false): unknown {
  // An atomic struct or map (a label selector, nodeSelector) is replaced whole, as an atomic list is.
  if (!root && isAtomicMap(n)) return clone(applied)
  if (isObj(applied)) {
    // Own fields only: "__proto__" is a key like any other (a ConfigMap's data may have it).
    const out: Record<string, unknown> = isObj(live) ? { ...live } : {}
    for (const [k, v] of Object.entries(applied)) {
      if (root && k === 'metadata' && isObj(v)) {
        const meta = { ...(out.metadata as Record<string, unknown>) }
        for (const [mk, mv] of Object.entries(v)) {
          if (mk === 'managedFields') continue
          setOwn(meta, mk, merge(own(meta, mk), mv, field(field(n, 'metadata'), mk)))
        }
        out.metadata = meta
        continue
      }
      setOwn(out, k, merge(own(out, k), v, field(n, k)))
    }
    return out
  }
  if (Array.isArray(applied)) {
    const lk = listKind(n, applied)
    if (lk.kind === 'atomic' || !Array.isArray(live)) return clone(applied)
    if (lk.kind === 'set') {
      const out = [...live]
      for (const v of applied) if (!out.some((x) => deepEqual(x, v))) out.push(v)
      return out
    }
    const el = element(n)
    const out = [...live]
    for (const item of applied) {
      if (!isObj(item)) continue
      const key = itemKey(item, lk.keys, el)
      const idx = out.findIndex((x) => isObj(x) && itemKey(x, lk.keys, el) === key)
      if (idx >= 0) out[idx] = merge(out[idx], item, el)
      else out.push(clone(item))
    }
    return out
  }
  return applied
}

/** How kube names a manager in conflicts: `"m"`, `"m" with subresource "status"`, `"m" using v1` for Updates. */
function printManager(c: ApplyConflict): string {
  let s = JSON.stringify(c.manager)
  if (c.subresource) s += ` with subresource ${JSON.stringify(c.subresource)}`
  if (c.operation === 'Update') s += ` using ${c.apiVersion}`
  return s
}

/** kube's conflict message (fieldmanager's getConflictMessage): one conflict inline, more grouped by manager. */
export function conflictMessage(conflicts: ApplyConflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!
    return `Apply failed with 1 conflict: conflict with ${printManager(c)}: ${c.field}`
  }
  const byManager = new Map<string, { printed: string; fields: string[] }>()
  for (const c of conflicts) {
    const entry = byManager.get(c.manager) ?? { printed: printManager(c), fields: [] }
    entry.fields.push(c.field)
    byManager.set(c.manager, entry)
  }
  const lines: string[] = []
  for (const m of [...byManager.keys()].sort()) {
    const { printed, fields } = byManager.get(m)!
    lines.push(`conflicts with ${printed}:`, ...fields.map((f) => `- ${f}`))
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`
}

/** A conflict cause's message: `conflict with "m" using v1`. */
export const conflictCause = (c: ApplyConflict) => `conflict with ${printManager(c)}`
