// The index rows a Durable Object keeps beside its objects (tables labels, owner_refs, attention; graph_edges through
// sql-graph-edges.ts): rewritten as changes apply, only where what they index changed, written whole on a reset, and
// the questions asked of them (a label's names, what controllers attend to, owners and their dependents).
import { graphEdgesChanged, graphEdgesOf, GRAPH_RESOURCES } from '../registry/node-graph/graph-edges'
import type { LogEntry, Stored } from '../registry/store'
import { materialize } from '../registry/stored-json'
import type { KubeObject } from '../schema/meta'
import type { Attend, OwnerRow } from './object-store'
import { writeGraphEdges } from './sql-graph-edges'

/** Two label maps or owner lists with the same content (keys in the same order, as a rewrite of one keeps them). */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * Rewrites the index rows of an applied change. Index rows change only when what they index changed: most updates (a
 * status, a binding) leave an object's labels and owners as they were, and rewriting them cost statements on every
 * write. A create has none to clear (each statement costs; creates are the hot path).
 */
export function reindex(sql: SqlStorage, e: LogEntry, attend: Attend): void {
  const labelsChanged = e.type !== 'MODIFIED' || !e.prev || !same(e.prev.metadata.labels, e.object.metadata.labels)
  const ownersChanged =
    e.type !== 'MODIFIED' || !e.prev || !same(e.prev.metadata.ownerReferences, e.object.metadata.ownerReferences)
  if (e.type !== 'ADDED') {
    if (labelsChanged) sql.exec('DELETE FROM labels WHERE resource = ? AND name = ?', e.resource, e.name)
    if (ownersChanged) sql.exec('DELETE FROM owner_refs WHERE resource = ? AND name = ?', e.resource, e.name)
  }
  if (e.type !== 'DELETED' && attend(e.resource, e.object)) {
    sql.exec('INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING', e.resource, e.name)
  } else if (e.type !== 'ADDED') {
    sql.exec('DELETE FROM attention WHERE resource = ? AND name = ?', e.resource, e.name)
  }
  if (e.type !== 'DELETED' && ownersChanged) insertOwnerRefs(sql, e.resource, e.name, e.object)
  // The graph's edges change only when what they hang on does (a pod's binding; not its status).
  if (
    GRAPH_RESOURCES.includes(e.resource) &&
    (e.type !== 'MODIFIED' || !e.prev || graphEdgesChanged(e.resource, e.prev, e.object))
  ) {
    const edges = e.type === 'DELETED' ? [] : graphEdgesOf(e.resource, e.object)
    // Nothing to clear when the object held no edges (a pod being bound, an unbound pod deleted).
    const heldNone = e.type === 'ADDED' || (e.prev !== null && graphEdgesOf(e.resource, e.prev).length === 0)
    writeGraphEdges(sql, e.resource, e.name, edges, heldNone)
  }
  if (e.type !== 'DELETED' && labelsChanged) insertLabels(sql, e.resource, e.name, labelsOf(e.object))
}

/** Every index row of an object stored afresh (a reset: the tables were emptied). */
export function indexAfresh(
  sql: SqlStorage,
  o: { resource: string; name: string; object: KubeObject },
  attend: Attend,
) {
  insertLabels(sql, o.resource, o.name, labelsOf(o.object))
  insertOwnerRefs(sql, o.resource, o.name, o.object)
  if (attend(o.resource, o.object)) {
    sql.exec('INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING', o.resource, o.name)
  }
  writeGraphEdges(sql, o.resource, o.name, graphEdgesOf(o.resource, o.object), true)
}

/** Empties every index table (a reset). */
export function clearIndexes(sql: SqlStorage): void {
  sql.exec('DELETE FROM labels; DELETE FROM owner_refs; DELETE FROM attention;')
  sql.exec('DELETE FROM graph_edges')
}

/** An object's labels as stored in the objects table and indexed. */
export const labelsOf = (obj: KubeObject) => (obj.metadata.labels ?? {}) as Record<string, string>

function insertLabels(sql: SqlStorage, resource: string, name: string, labels: Record<string, string>) {
  for (const [k, v] of Object.entries(labels)) {
    sql.exec('INSERT INTO labels (resource, key, value, name) VALUES (?, ?, ?, ?)', resource, k, v, name)
  }
}

function insertOwnerRefs(sql: SqlStorage, resource: string, name: string, obj: KubeObject) {
  for (const ref of obj.metadata.ownerReferences ?? []) {
    sql.exec(
      'INSERT INTO owner_refs (owner_uid, owner_api_version, owner_kind, owner_name, resource, name) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ref.uid,
      ref.apiVersion,
      ref.kind,
      ref.name,
      resource,
      name,
    )
  }
}

/** Recomputes the attention list from every object (once, for state written before the list existed). */
export function rebuildAttention(sql: SqlStorage, attend: Attend): void {
  sql.exec('DELETE FROM attention')
  for (const r of sql
    .exec<{ resource: string; name: string; rv: number; object: string }>(
      'SELECT resource, name, rv, object FROM objects',
    )
    .toArray()) {
    if (attend(r.resource, materialize(r.object, r.rv))) {
      sql.exec('INSERT INTO attention (resource, name) VALUES (?, ?) ON CONFLICT DO NOTHING', r.resource, r.name)
    }
  }
}

/** The names of the objects carrying the label key=value, in name order. */
export function namesWithLabel(sql: SqlStorage, resource: string, key: string, value: string): string[] {
  return sql
    .exec<{ name: string }>(
      'SELECT name FROM labels WHERE resource = ? AND key = ? AND value = ? ORDER BY name',
      resource,
      key,
      value,
    )
    .toArray()
    .map((r) => r.name)
}

/** Objects a controller still has work with (what a wake-up must look at; the rest are settled). */
export function attending(sql: SqlStorage, resource: string): Stored[] {
  return sql
    .exec<{ rv: number; object: string }>(
      'SELECT o.rv, o.object FROM attention a JOIN objects o ON o.resource = a.resource AND o.name = a.name WHERE a.resource = ? ORDER BY a.name',
      resource,
    )
    .toArray()
    .map((r) => ({ rv: r.rv, object: materialize(r.object, r.rv) }))
}

/** The objects naming `uid` in their ownerReferences (the garbage collector's index). */
export function dependents(sql: SqlStorage, uid: string): { resource: string; name: string }[] {
  return sql
    .exec<{ resource: string; name: string }>('SELECT resource, name FROM owner_refs WHERE owner_uid = ?', uid)
    .toArray()
}

/** Every owner some object here names (uid, apiVersion, kind, name): the garbage collector checks they exist. */
export function owners(sql: SqlStorage): OwnerRow[] {
  return sql
    .exec<{ uid: string; apiVersion: string; kind: string; name: string }>(
      'SELECT DISTINCT owner_uid AS uid, owner_api_version AS apiVersion, owner_kind AS kind, owner_name AS name FROM owner_refs',
    )
    .toArray()
}

/** The resources with objects on the attention list. */
export function attendedResources(sql: SqlStorage): string[] {
  return sql
    .exec<{ resource: string }>('SELECT DISTINCT resource FROM attention ORDER BY resource')
    .toArray()
    .map((r) => r.resource)
}

/** Rewrites every owner row from the stored objects (an upgrade: the rows of an older layout lack apiVersion). */
export function rebuildOwnerRefs(sql: SqlStorage): void {
  sql.exec('DELETE FROM owner_refs')
  for (const r of sql
    .exec<{ resource: string; name: string; rv: number; object: string }>(
      'SELECT resource, name, rv, object FROM objects',
    )
    .toArray()) {
    insertOwnerRefs(sql, r.resource, r.name, materialize(r.object, r.rv))
  }
}
