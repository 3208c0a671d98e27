// The Node authorizer's graph edges in a Durable Object's SQLite (table graph_edges, see sql-schema.ts): written
// beside the objects that hold them (pods, PersistentVolumes; src/registry/node-graph/graph-edges.ts) and looked up by
// the vertex an edge leaves, so the authorizer's questions are one indexed lookup each.
import { GRAPH_RESOURCES, type GraphEdge, graphEdgesOf } from '../registry/node-graph/graph-edges'
import { materialize } from '../registry/stored-json'
import type { GraphEdgeRow } from './object-store'

/** Replaces the edges `resource`/`name` holds with `edges` (none: the object left the graph). */
export function writeGraphEdges(
  sql: SqlStorage,
  resource: string,
  name: string,
  edges: readonly GraphEdge[],
  fresh = false,
) {
  // An object that held no edges has no rows to clear (each statement costs; creates and bindings are hot paths).
  if (!fresh) sql.exec('DELETE FROM graph_edges WHERE resource = ? AND name = ?', resource, name)
  for (const e of edges) {
    sql.exec(
      'INSERT INTO graph_edges (type, ref_namespace, ref_name, node, resource, name) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      e.type,
      e.namespace,
      e.name,
      e.node,
      resource,
      name,
    )
  }
}

/** The edges leaving vertex (type, namespace, name), only those bound to `node` when given (then at most one). */
export function graphEdgesFrom(
  sql: SqlStorage,
  type: string,
  namespace: string,
  name: string,
  node?: string,
): GraphEdgeRow[] {
  const rows =
    node === undefined
      ? sql.exec<{ resource: string; name: string; node: string }>(
          'SELECT resource, name, node FROM graph_edges WHERE type = ? AND ref_namespace = ? AND ref_name = ? ORDER BY resource, name',
          type,
          namespace,
          name,
        )
      : sql.exec<{ resource: string; name: string; node: string }>(
          'SELECT resource, name, node FROM graph_edges WHERE type = ? AND ref_namespace = ? AND ref_name = ? AND node = ? LIMIT 1',
          type,
          namespace,
          name,
          node,
        )
  return rows.toArray().map((r) => ({ resource: r.resource, name: r.name, node: r.node }))
}

/** Every stored object's edges, from scratch (a store written before the graph existed, or one reset). */
export function rebuildGraphEdges(sql: SqlStorage) {
  sql.exec('DELETE FROM graph_edges')
  for (const resource of GRAPH_RESOURCES) {
    const rows = sql
      .exec<{ name: string; rv: number; object: string }>(
        'SELECT name, rv, object FROM objects WHERE resource = ?',
        resource,
      )
      .toArray()
    for (const r of rows)
      writeGraphEdges(sql, resource, r.name, graphEdgesOf(resource, materialize(r.object, r.rv)), true)
  }
}
