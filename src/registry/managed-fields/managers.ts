// managedFields bookkeeping: who owns which fields. Update operations (POST, PUT, non-apply PATCH) give their
// manager the fields they changed and take those fields from everyone else; apply is in apply.ts.
import type { z } from 'zod'
import type { KubeObject } from '../../schema/meta'
import { deepEqual } from '../deep-equal'
import { rfc3339 } from '../time'
import {
  fieldSetOf,
  fromFieldsV1,
  innerPathsOf,
  scopeToSubresource,
  splitPath,
  toFieldsV1,
  valueAt,
  type FieldSet,
} from './field-set'

export interface ManagedEntry {
  manager: string
  operation: 'Apply' | 'Update'
  apiVersion: string
  time: string
  fieldsType: 'FieldsV1'
  fieldsV1: Record<string, unknown>
  subresource?: string
}

export interface Owner {
  manager: string
  operation: 'Apply' | 'Update'
  subresource?: string
  set: FieldSet
  time: string
  apiVersion: string
}

export function readOwners(obj: KubeObject | null): Owner[] {
  return ownersOf((obj?.metadata.managedFields ?? []) as Partial<ManagedEntry>[])
}

function ownersOf(entries: Partial<ManagedEntry>[]): Owner[] {
  return entries
    .filter((e) => typeof e.manager === 'string')
    .map((e) => ({
      manager: e.manager!,
      operation: e.operation === 'Apply' ? 'Apply' : 'Update',
      subresource: e.subresource,
      set: fromFieldsV1(e.fieldsV1 ?? {}),
      time: e.time ?? '',
      apiVersion: e.apiVersion ?? 'v1',
    }))
}

/**
 * Who owned what before an Update when the request says so, as kube decides it (decodeLiveOrNew): the managedFields
 * the request carries, so a client may rewrite ownership (kubectl does when it moves an object from client-side to
 * server-side apply); nobody when it carries an empty list or one empty entry. Null, meaning the stored ones, when it
 * carries none, entries that do not decode, or writes through a subresource.
 */
function sentOwners(sent: unknown, prev: KubeObject | null, subresource?: string): Owner[] | null {
  if (subresource || !Array.isArray(sent) || deepEqual(sent, prev?.metadata.managedFields)) return null
  if (sent.length === 0 || (sent.length === 1 && isObj(sent[0]) && Object.keys(sent[0]).length === 0)) return []
  if (!sent.every(decodes)) return null
  // Entries are keyed by who wrote them (an applier whatever its apiVersion): of two with one key, the later counts.
  const owners = ownersOf(sent as Partial<ManagedEntry>[])
  const key = (o: Owner) =>
    JSON.stringify([o.manager, o.operation, o.operation === 'Apply' ? '' : o.apiVersion, o.subresource ?? ''])
  const last = new Map(owners.map((o) => [key(o), o]))
  return owners.filter((o) => last.get(key(o)) === o)
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** What kube's DecodeManagedFields accepts. */
function decodes(e: unknown): boolean {
  return (
    isObj(e) &&
    (e.operation === 'Apply' || e.operation === 'Update') &&
    typeof e.apiVersion === 'string' &&
    e.apiVersion !== '' &&
    e.fieldsType === 'FieldsV1' &&
    (e.fieldsV1 === undefined || isObj(e.fieldsV1))
  )
}

export function writeOwners(owners: Owner[]): ManagedEntry[] | undefined {
  const out = owners
    .filter((o) => o.set.size > 0)
    .map((o) => {
      const e: ManagedEntry = {
        manager: o.manager,
        operation: o.operation,
        apiVersion: o.apiVersion,
        time: o.time,
        fieldsType: 'FieldsV1',
        fieldsV1: toFieldsV1(o.set),
      }
      if (o.subresource) e.subresource = o.subresource
      return e
    })
  return out.length > 0 ? out : undefined
}

export const sameOwner = (o: Owner, manager: string, operation: Owner['operation'], subresource?: string) =>
  o.manager === manager && o.operation === operation && (o.subresource ?? '') === (subresource ?? '')

/** The paths whose value differs between two objects (present in either). */
function changedPaths(
  next: KubeObject,
  prev: KubeObject | null,
  schema: z.ZodType,
  nextSet = fieldSetOf(next, schema),
): FieldSet {
  if (!prev) return nextSet
  const prevSet = fieldSetOf(prev, schema)
  const changed: FieldSet = new Set()
  const inner = innerPathsOf(nextSet)
  for (const p of nextSet) {
    if (!prevSet.has(p)) changed.add(p)
    // A map entry or list item changes by appearing or disappearing; its fields speak for its content.
    else if (!inner.has(p) && !deepEqual(valueAt(next, splitPath(p)), valueAt(prev, splitPath(p)))) changed.add(p)
  }
  for (const p of prevSet) if (!nextSet.has(p)) changed.add(p)
  return changed
}

/** Records an Update by `manager`: the object's managedFields after the write. `sent`: the request's managedFields. */
export function recordUpdate(
  next: KubeObject,
  prev: KubeObject | null,
  schema: z.ZodType,
  manager: string,
  now: Date,
  subresource?: string,
  sent?: unknown,
): ManagedEntry[] | undefined {
  const fromRequest = sentOwners(sent, prev, subresource)
  const owners = fromRequest ?? readOwners(prev)
  // One walk of the new object serves both sets (for a create they are the same fields).
  const nextSet = fieldSetOf(next, schema)
  const changed = scopeToSubresource(changedPaths(next, prev, schema, nextSet), subresource)
  if (changed.size === 0)
    return fromRequest ? writeOwners(fromRequest) : (prev?.metadata.managedFields as ManagedEntry[] | undefined)
  const present = prev ? scopeToSubresource(nextSet, subresource) : changed
  let mine = owners.find((o) => sameOwner(o, manager, 'Update', subresource))
  for (const o of owners) {
    if (o === mine) continue
    for (const p of changed) o.set.delete(p)
  }
  if (!mine) {
    mine = { manager, operation: 'Update', subresource, set: new Set(), time: '', apiVersion: next.apiVersion ?? 'v1' }
    owners.push(mine)
  }
  for (const p of changed) if (present.has(p)) mine.set.add(p)
  for (const p of [...mine.set]) if (!present.has(p)) mine.set.delete(p)
  mine.time = rfc3339(now)
  return writeOwners(owners)
}

/** kube's default manager when the request names none: the User-Agent up to its first '/'. */
export function defaultManager(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').trim()
  if (!ua) return 'unknown'
  const name = ua.split('/')[0]!.trim()
  return name.length > 128 ? name.slice(0, 128) : name || 'unknown'
}
