// LIST for every kind and both sources (a namespace's Durable Object, D1): selectors, paging with consistent snapshots.
import type { KubeObject } from '../schema/meta'
import type { LabelSelector } from './label-selector'
import type { FieldSelector } from './field-selector'
import { indexableRequirement } from './label-selector'
import { decodeContinue, encodeContinue } from './continue-token'
import { statuses, ok, fail, type Result } from './status'
import type { ChangeType } from './store'
import { materialize } from './stored-json'
import type { Strategy } from './strategy'

/** A live object as a source yields it: labels up front so most rows are filtered without parsing the object. */
export interface ListItem {
  key: string
  rv: number
  labels: Record<string, string>
  load(): KubeObject
}

/** What a change since a snapshot tells about one key. */
export interface PastState {
  /** The object as of the snapshot; null if it did not exist then. */
  atSnapshot: KubeObject | null
  /** Whether a live row exists for the key now (so the scan will yield it). */
  liveNow: boolean
}

/** Narrows a scan to objects carrying a label, with one of the values (null: any value). */
export interface IndexHint {
  key: string
  values: string[] | null
}

export interface ListSource {
  /** The newest resourceVersion the source reflects: every change to its objects up to it is visible. */
  currentRv: number
  /** Snapshots at resourceVersions below this are gone (history compacted): such requests answer 410. */
  floorRv: number
  /** Live objects with key > after (all if null), in key order, at most n, narrowed by the hint if given. */
  scan(after: string | null, n: number, hint: IndexHint | null): Promise<ListItem[]>
  /** The number of live objects with key > after. */
  count(after: string | null): Promise<number>
  /** For every key > after changed after rv: its state at rv. */
  changedSince(rv: number, after: string | null): Promise<Map<string, PastState>>
  /**
   * True when no write can land between this source's reads (one DO's synchronous SQLite). Otherwise (D1) the
   * past states are read again after the scan, to put back objects changed or deleted while it ran.
   */
  isolated?: boolean
}

/** The resourceVersion semantics of a list request, already validated by the API layer. */
export type ListMode =
  | { kind: 'latest' }
  /** resourceVersion=0: any state is fine, and (as kube's watch cache does) limit is ignored. */
  | { kind: 'any' }
  | { kind: 'exact'; rv: number }
  | { kind: 'continue'; token: string }

interface ListRequest {
  mode: ListMode
  limit?: number
  labelSelector?: LabelSelector
  fieldSelector?: FieldSelector
}

/** What one scan yields: the page's objects with their keys, and whether more matched beyond the limit. */
type Scanned = { items: KubeObject[]; keys: string[]; more: boolean }

export interface ListPage {
  items: KubeObject[]
  resourceVersion: number
  continue?: string
  remainingItemCount?: number
}

const CHUNK = 256

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'

export async function listObjects(
  source: ListSource,
  strategy: Pick<Strategy, 'selectableFields'>,
  req: ListRequest,
): Promise<Result<ListPage>> {
  let snapshot = source.currentRv
  let after: string | null = null
  let limit = req.limit && req.limit > 0 ? req.limit : undefined
  switch (req.mode.kind) {
    case 'any':
      limit = undefined
      break
    case 'exact':
      if (req.mode.rv < source.floorRv)
        return fail(statuses.expired('The resourceVersion for the provided list is too old.'))
      snapshot = req.mode.rv
      break
    case 'continue': {
      const pos = decodeContinue(req.mode.token)
      if (!pos) return fail(statuses.badRequest('continue key is not valid: invalid continue token'))
      if (pos.rv < source.floorRv) {
        const s = statuses.expired(EXPIRED_CONTINUE)
        s.metadata.continue = encodeContinue({ rv: source.currentRv, start: pos.start })
        return fail(s)
      }
      snapshot = pos.rv
      after = pos.start
      break
    }
  }

  const past = snapshot < source.currentRv ? await source.changedSince(snapshot, after) : new Map<string, PastState>()
  const scanned = await scanOnce(past)
  if (source.isolated) return finish(scanned, past)
  // A racing source (D1: the snapshot rv, the past states and each chunk are separate reads while other namespaces
  // commit) can change under the scan. Read the past states again once it is done: every object of the snapshot
  // changed or deleted meanwhile is in there, and the ones the scan did not take are merged back in. One extra
  // read, never a rescan, so a busy cluster cannot starve a list.
  const now = await source.changedSince(snapshot, after)
  return finish(mergeMissed(scanned, past, now), now)

  function mergeMissed(r: Scanned, before: Map<string, PastState>, now: Map<string, PastState>): Scanned {
    const taken = new Set(r.keys)
    // With more pages to come, the scan only answered for keys up to its last one; the next page covers the rest.
    const last = r.more ? r.keys[r.keys.length - 1] : undefined
    const missed = [...now.entries()]
      .filter(
        ([key, p]) =>
          p.atSnapshot !== null && !before.has(key) && !taken.has(key) && (last === undefined || key < last),
      )
      .filter(([, p]) => matches(p.atSnapshot!))
    if (missed.length === 0) return r
    const merged = [
      ...r.keys.map((key, i) => ({ key, object: r.items[i]! })),
      ...missed.map(([key, p]) => ({ key, object: p.atSnapshot! })),
    ]
    merged.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    let more = r.more
    if (limit !== undefined && merged.length > limit) {
      merged.length = limit
      more = true
    }
    return { items: merged.map((m) => m.object), keys: merged.map((m) => m.key), more }
  }

  function matches(obj: KubeObject): boolean {
    if (req.labelSelector && !req.labelSelector.matches((obj.metadata.labels ?? {}) as Record<string, string>))
      return false
    return !req.fieldSelector || req.fieldSelector.matches(strategy.selectableFields(obj))
  }

  async function scanOnce(past: Map<string, PastState>): Promise<Scanned> {
    const hint = req.labelSelector ? indexableRequirement(req.labelSelector) : null
    // Past states are few (bounded by history); merge them, sorted, into the live scan.
    const pastItems = [...past.entries()]
      .filter(([, p]) => p.atSnapshot !== null)
      .map(([key, p]) => ({ key, object: p.atSnapshot! }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    let pi = 0
    const items: KubeObject[] = []
    const keys: string[] = []
    let more = false
    let cursor = after
    let exhausted = false
    const want = limit === undefined ? Infinity : limit + 1
    const take = (key: string, labels: Record<string, string>, load: () => KubeObject): boolean => {
      if (req.labelSelector && !req.labelSelector.matches(labels)) return true
      const obj = load()
      if (req.fieldSelector && !req.fieldSelector.matches(strategy.selectableFields(obj))) return true
      if (items.length + 1 === want) {
        more = true
        return false
      }
      items.push(obj)
      keys.push(key)
      return true
    }
    const emitPast = () => {
      const p = pastItems[pi++]!
      return take(p.key, (p.object.metadata.labels ?? {}) as Record<string, string>, () => p.object)
    }
    outer: while (!exhausted) {
      const chunk = await source.scan(cursor, CHUNK, hint)
      if (chunk.length < CHUNK) exhausted = true
      const chunkEnd = exhausted ? null : chunk[chunk.length - 1]!.key
      for (const it of chunk) {
        // Past states that sort before this live row come first.
        while (pi < pastItems.length && pastItems[pi]!.key < it.key) {
          if (!emitPast()) break outer
        }
        cursor = it.key
        if (past.has(it.key)) continue // changed after the snapshot: its past state stands in for it
        // Newer than the snapshot and unknown to the past states: created after them, or (racing sources only) an
        // object of the snapshot changed since they were read, which mergeMissed puts back.
        if (it.rv > snapshot) continue
        if (!take(it.key, it.labels, it.load)) break outer
      }
      // Past states up to the end of this chunk (or all of them, once the scan is exhausted).
      while (pi < pastItems.length && (chunkEnd === null || pastItems[pi]!.key <= chunkEnd)) {
        if (!emitPast()) break outer
      }
    }
    return { items, keys, more }
  }

  async function finish(r: Scanned, past: Map<string, PastState>): Promise<Result<ListPage>> {
    const { items, keys, more } = r
    const page: ListPage = { items, resourceVersion: snapshot }
    if (more && keys.length > 0) {
      const last = keys[keys.length - 1]!
      page.continue = encodeContinue({ rv: snapshot, start: last })
      // Like etcd, the count is only known without selectors.
      if (!req.labelSelector?.requirements.length && !req.fieldSelector?.requirements.length) {
        let remaining = await source.count(last)
        for (const [key, p] of past) {
          if (key <= last) continue
          if (p.liveNow) remaining--
          if (p.atSnapshot) remaining++
        }
        page.remainingItemCount = Math.max(remaining, 0)
      }
    }
    return ok(page)
  }
}

/** Folds changes after a snapshot (in rv order) into each key's state at the snapshot and whether it lives now. */
export function pastStates(
  rows: Iterable<{ key: string; type: ChangeType; prev: string | null; prevRv: number | null }>,
  after: string | null,
): Map<string, PastState> {
  const out = new Map<string, PastState>()
  for (const r of rows) {
    if (after !== null && r.key <= after) continue
    const seen = out.get(r.key)
    if (seen) {
      seen.liveNow = r.type !== 'DELETED'
      continue
    }
    const atSnapshot = r.prev !== null && r.prevRv !== null ? materialize(r.prev, r.prevRv) : null
    out.set(r.key, { atSnapshot, liveNow: r.type !== 'DELETED' })
  }
  return out
}
