// The history DaemonSets and StatefulSets keep as apps/v1 ControllerRevisions (kube's controller history, through the
// verbs like any client): the owner's revisions (claimed by selector and controller reference), the revision of its
// current template (found by its data, renumbered to the newest when an older one comes back, as a rollback does; or
// created, bumping the collision count when another revision already holds the name), and the trimming of old
// revisions beyond revisionHistoryLimit that no live pod still runs.
import type { ControllerHost } from '../host/controller'
import {
  REVISION_HASH_LABEL,
  revisionHash,
  revisionMatches,
  revisionName,
  templatePatch,
} from '../registry/controller-history'
import type { Stored } from '../registry/store'
import type { KubeObject } from '../schema/meta'
import { CONTROLLER_MANAGER, claim, controllerRef, type LabelMatcher, type OwnerReference } from './pod-owner'

const REVISIONS = 'controllerrevisions'
type Obj = Record<string, any>

/** What the history needs of its owner's kind. */
export interface HistoryOwner {
  resource: string
  ref: OwnerReference
  matches: LabelMatcher
  /** DaemonSet revisions carry the set's annotations (kube's snapshot), StatefulSet revisions none. */
  copyAnnotations: boolean
}

const revisionNumber = (o: KubeObject) => Number((o as Obj).revision ?? 0)

/** The owner's revisions as stored now, oldest revision number first (SortControllerRevisions). */
export function ownedRevisions(host: ControllerHost, uid: string): KubeObject[] {
  return host
    .all(REVISIONS)
    .map((s: Stored) => s.object)
    .filter((r) => controllerRef(r)?.uid === uid)
    .sort((a, b) => revisionNumber(a) - revisionNumber(b) || (a.metadata.name! < b.metadata.name! ? -1 : 1))
}

/** Adopts orphaned revisions the owner's selector matches, releases owned ones it no longer matches. */
export function claimRevisions(host: ControllerHost, owner: HistoryOwner): Promise<void> {
  return claim(host, REVISIONS, owner.ref, () => {
    const now = host.get(owner.resource, owner.ref.name)?.object
    return now && now.metadata.uid === owner.ref.uid ? { owner: now, matches: owner.matches } : null
  })
}

/**
 * The revision of the owner's template: an existing one with the same data (renumbered to follow every other
 * revision if it does not already), or a new one. Answers it with the collision count used, or null when the write
 * did not happen (the next sync tries again).
 */
export async function ensureRevision(
  host: ControllerHost,
  owner: KubeObject,
  history: HistoryOwner,
): Promise<{ revision: KubeObject; collisionCount: number | undefined } | null> {
  const revisions = ownedRevisions(host, owner.metadata.uid!)
  let collisionCount = (owner as Obj).status?.collisionCount as number | undefined
  const next = (revisions.length ? Math.max(...revisions.map(revisionNumber)) : 0) + 1
  const equal = revisions.filter((r) => revisionMatches(owner, r))
  const latest = revisions[revisions.length - 1]
  if (equal.length > 0) {
    const found = equal[equal.length - 1]!
    if (found === latest) return { revision: found, collisionCount }
    // A template seen before: that revision becomes the newest again (kube's rollback renumbering).
    const r = await host.update(
      REVISIONS,
      found.metadata.name!,
      (cur) => (revisionNumber(cur) >= next ? null : { ...cur, revision: next }),
      { fieldManager: CONTROLLER_MANAGER },
    )
    if (!r.ok) return null
    return { revision: r.value?.object ?? found, collisionCount }
  }
  const { data, raw } = templatePatch(owner)
  const template = ((owner as Obj).spec?.template ?? {}) as Obj
  for (let attempt = 0; attempt < 5; attempt++) {
    const hash = revisionHash(raw, collisionCount)
    const name = revisionName(owner.metadata.name!, hash)
    const metadata: Obj = {
      name,
      labels: { ...(template.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: hash },
      ownerReferences: [{ ...history.ref }],
    }
    if (history.copyAnnotations && owner.metadata.annotations) metadata.annotations = { ...owner.metadata.annotations }
    const body = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data, revision: next } as KubeObject
    const created = await host.create(REVISIONS, body, { fieldManager: CONTROLLER_MANAGER })
    if (created.ok) return { revision: created.value.object, collisionCount }
    if (created.status.code !== 409) return null
    const existing = host.get(REVISIONS, name)?.object
    if (existing && revisionMatches(owner, existing) && controllerRef(existing)?.uid === owner.metadata.uid)
      return { revision: existing, collisionCount }
    // Another revision holds the name: hash again with the next collision count.
    collisionCount = (collisionCount ?? 0) + 1
  }
  return null
}

/**
 * cleanupHistory: deletes the oldest revisions beyond `limit` that are neither `keep` (the current and update
 * revisions) nor run by a live pod (`inUse`: the hash or name label values of the owner's pods).
 */
export async function trimHistory(
  host: ControllerHost,
  uid: string,
  limit: number,
  keep: ReadonlySet<string>,
  inUse: (revision: KubeObject) => boolean,
): Promise<void> {
  const old = ownedRevisions(host, uid).filter((r) => !keep.has(r.metadata.name!) && !inUse(r))
  const excess = old.length - limit
  if (excess <= 0) return
  await Promise.all(old.slice(0, excess).map((r) => host.delete(REVISIONS, r.metadata.name!)))
}
