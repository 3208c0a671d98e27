// managedFields bookkeeping: who owns which fields. Update operations (POST, PUT, non-apply PATCH) give their
// manager the fields they changed and take those fields from everyone else; apply is in apply.ts.
import type { z } from 'zod'
import type { KubeObject } from '../../schema/meta'
import type { GoType } from '../decoding/go-types'
import { deepEqual } from '../deep-equal'
import { rfc3339 } from '../time'
import { compareObjects } from './compare'
import { type FieldSet, scopeToSubresource } from './field-set'
import { fromFieldsV1, toFieldsV1 } from './fields-v1'

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

/** kube's sortEncodedManagedFields: Apply before Update, then by time (whole seconds), manager, apiVersion, subresource. */
function entryOrder(p: Owner, q: Owner): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1
  const ps = Math.floor((Date.parse(p.time) || 0) / 1000)
  const qs = Math.floor((Date.parse(q.time) || 0) / 1000)
  if (ps !== qs) return ps - qs
  const key = (o: Owner) => [o.manager, o.apiVersion, o.subresource ?? '']
  const [a, b] = [key(p), key(q)]
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1
  return 0
}

export function writeOwners(owners: Owner[]): ManagedEntry[] | undefined {
  const out = owners
    .filter((o) => o.set.size > 0)
    .sort(entryOrder)
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

/**
 * Records an Update by `manager`: the object's managedFields after the write. `sent`: the request's managedFields.
 * As structured-merge-diff's Updater.Update behind kube's managedFieldsUpdater: the write's Compare of old and new
 * (a create's old object is the kind's empty Go object, `goType`'s), less what the subresource does not own; every
 * manager loses what was added, modified or removed, and the writer gains what was added or modified (its time moves
 * only then).
 */
export function recordUpdate(
  next: KubeObject,
  prev: KubeObject | null,
  schema: z.ZodType,
  goType: GoType | null,
  manager: string,
  now: Date,
  subresource?: string,
  sent?: unknown,
  keepsStatus = false,
): ManagedEntry[] | undefined {
  const fromRequest = sentOwners(sent, prev, subresource)
  const owners = fromRequest ?? readOwners(prev)
  // kube's skipNonAppliedManager: an update of an object that has no managedFields (none stored, or the request
  // reset them) is not tracked; tracking starts with a create (or an apply).
  if (prev && owners.length === 0) return fromRequest ? writeOwners(fromRequest) : undefined
  const c = compareObjects(prev, next, schema, goType)
  const changed = scopeToSubresource(new Set([...c.added, ...c.modified]), subresource, keepsStatus)
  const removed = scopeToSubresource(c.removed, subresource, keepsStatus)
  if (changed.size === 0 && removed.size === 0)
    return fromRequest ? writeOwners(fromRequest) : (prev?.metadata.managedFields as ManagedEntry[] | undefined)
  for (const o of owners) {
    for (const p of changed) o.set.delete(p)
    for (const p of removed) o.set.delete(p)
  }
  if (changed.size > 0) {
    let mine = owners.find((o) => sameOwner(o, manager, 'Update', subresource))
    if (!mine) {
      mine = {
        manager,
        operation: 'Update',
        subresource,
        set: new Set(),
        time: '',
        apiVersion: next.apiVersion ?? 'v1',
      }
      owners.push(mine)
    }
    for (const p of changed) mine.set.add(p)
    mine.time = rfc3339(now)
  }
  return writeOwners(capUpdateManagers(owners.filter((o) => o.set.size > 0)))
}

/** kube's DefaultMaxUpdateManagers, and the manager its oldest Update entries are merged into past it. */
const MAX_UPDATE_MANAGERS = 10
const ANCIENT = 'ancient-changes'

/**
 * kube's capManagersManager: past 10 Update entries, the oldest (by time in seconds, then manager identifier) are
 * merged, per apiVersion, into an `ancient-changes` entry, whose time is that of the last entry merged into it.
 */
function capUpdateManagers(owners: Owner[]): Owner[] {
  const updaters = owners.filter((o) => o.operation === 'Update')
  if (updaters.length <= MAX_UPDATE_MANAGERS) return owners
  const ident = (o: Owner) =>
    JSON.stringify({ manager: o.manager, operation: 'Update', apiVersion: o.apiVersion, subresource: o.subresource })
  const seconds = (o: Owner) => Math.floor((Date.parse(o.time) || 0) / 1000)
  updaters.sort((a, b) => seconds(a) - seconds(b) || (ident(a) < ident(b) ? -1 : ident(a) > ident(b) ? 1 : 0))
  const first = new Map<string, Owner>()
  const merged = new Set<Owner>()
  const isBucket = (o: Owner, v: string) => o.manager === ANCIENT && o.apiVersion === v && !o.subresource
  for (let i = 0, length = updaters.length; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const o = updaters[i]!
    const f = first.get(o.apiVersion)
    if (!f) {
      first.set(o.apiVersion, o)
      continue
    }
    let bucket = owners.find((x) => !merged.has(x) && isBucket(x, o.apiVersion))
    if (!bucket) {
      // The version's first (oldest) entry becomes the bucket.
      f.manager = ANCIENT
      f.subresource = undefined
      bucket = f
    }
    for (const p of o.set) bucket.set.add(p)
    bucket.time = o.time
    merged.add(o)
    length--
  }
  return owners.filter((o) => !merged.has(o))
}

/** kube's default manager when the request names none: the User-Agent up to its first '/'. */
export function defaultManager(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').trim()
  if (!ua) return 'unknown'
  const name = ua.split('/')[0]!.trim()
  return name.length > 128 ? name.slice(0, 128) : name || 'unknown'
}
