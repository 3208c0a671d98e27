// The in-memory twin of SqlObjectStore (src/host/object-store.ts): the same contract over Maps, objects kept as their
// stored JSON text so reads materialize copies exactly as the SQLite store does; its lists: memory-list-source.ts.
// The unit tests run both through one case suite (test/host/object-store.cases.ts).
import type { ListSource } from '../registry/list'
import type { LogEntry, Stored } from '../registry/store'
import { encodeStored, materialize, storedText } from '../registry/stored-json'
import type { KubeObject } from '../schema/meta'
import { type GraphEdge, graphEdgesChanged, graphEdgesOf } from '../registry/node-graph/graph-edges'
import { memoryListSource } from './memory-list-source'
import type { Attend, GraphEdgeRow, HostState, ObjectStore, OwnerRow } from './object-store'

interface Row {
  rv: number
  labels: Record<string, string>
  text: string
}

interface HistoryRow {
  rv: number
  resource: string
  name: string
  type: LogEntry['type']
  object: string
  prev: string | null
  prevRv: number | null
}

const byName = (a: [string, Row], b: [string, Row]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)

export class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, Map<string, Row>>()
  private history: HistoryRow[] = []
  private readonly attention = new Set<string>()
  /** `resource/name` → the owners it names. */
  private readonly ownerRefs = new Map<string, OwnerRow[]>()
  /** `resource/name` → the Node authorizer's graph edges it holds. */
  private readonly edges = new Map<string, GraphEdge[]>()
  private appliedRv: number
  private floorRv: number

  constructor(
    private readonly state: HostState,
    private readonly historyRetain: number,
    private readonly attend: Attend = () => false,
  ) {
    this.appliedRv = Number(state.get('applied_rv') ?? 0)
    this.floorRv = Number(state.get('floor_rv') ?? 0)
  }

  get currentRv() {
    return this.appliedRv
  }

  get historyFloor() {
    return this.floorRv
  }

  private rows(resource: string): Map<string, Row> {
    let rows = this.objects.get(resource)
    if (!rows) this.objects.set(resource, (rows = new Map()))
    return rows
  }

  private sorted(resource: string): [string, Row][] {
    return [...this.rows(resource)].sort(byName)
  }

  get(resource: string, name: string): Stored | null {
    const row = this.objects.get(resource)?.get(name)
    return row ? { rv: row.rv, object: materialize(row.text, row.rv) } : null
  }

  exists(resource: string, name: string): boolean {
    return this.objects.get(resource)?.has(name) ?? false
  }

  all(resource: string): Stored[] {
    return this.sorted(resource).map(([, r]) => ({ rv: r.rv, object: materialize(r.text, r.rv) }))
  }

  labelsOf(resource: string): { name: string; labels: Record<string, string> }[] {
    return this.sorted(resource).map(([name, r]) => ({ name, labels: { ...r.labels } }))
  }

  namesWithLabel(resource: string, key: string, value: string): string[] {
    return this.sorted(resource)
      .filter(([, r]) => r.labels[key] === value)
      .map(([name]) => name)
  }

  names(resource: string): string[] {
    return this.sorted(resource).map(([name]) => name)
  }

  resources(): string[] {
    return [...this.objects].filter(([, rows]) => rows.size > 0).map(([resource]) => resource)
  }

  attending(resource: string): Stored[] {
    return this.sorted(resource)
      .filter(([name]) => this.attention.has(`${resource}/${name}`))
      .map(([, r]) => ({ rv: r.rv, object: materialize(r.text, r.rv) }))
  }

  rebuildAttention() {
    this.attention.clear()
    for (const [resource, rows] of this.objects) {
      for (const [name, r] of rows)
        if (this.attend(resource, materialize(r.text, r.rv))) this.attention.add(`${resource}/${name}`)
    }
  }

  dependents(uid: string): { resource: string; name: string }[] {
    const out: { resource: string; name: string }[] = []
    for (const [key, refs] of this.ownerRefs) {
      if (!refs.some((r) => r.uid === uid)) continue
      const i = key.indexOf('/')
      out.push({ resource: key.slice(0, i), name: key.slice(i + 1) })
    }
    return out
  }

  owners(): OwnerRow[] {
    const seen = new Map<string, OwnerRow>()
    for (const refs of this.ownerRefs.values())
      for (const r of refs) seen.set(`${r.uid}/${r.apiVersion}/${r.kind}/${r.name}`, r)
    return [...seen.values()]
  }

  attendedResources(): string[] {
    return [...new Set([...this.attention].map((key) => key.slice(0, key.indexOf('/'))))].sort()
  }

  graphEdgesFrom(type: string, namespace: string, name: string, node?: string): GraphEdgeRow[] {
    const out: GraphEdgeRow[] = []
    for (const [key, edges] of [...this.edges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const i = key.indexOf('/')
      for (const e of edges) {
        if (e.type !== type || e.namespace !== namespace || e.name !== name) continue
        if (node !== undefined && e.node !== node) continue
        out.push({ resource: key.slice(0, i), name: key.slice(i + 1), node: e.node })
        if (node !== undefined) return out
      }
    }
    return out
  }

  /** Replaces the graph edges an object holds (none: it left the graph, or holds none). */
  private setEdges(resource: string, name: string, obj: KubeObject | null) {
    const edges = obj ? graphEdgesOf(resource, obj) : []
    if (edges.length > 0) this.edges.set(`${resource}/${name}`, edges)
    else this.edges.delete(`${resource}/${name}`)
  }

  private index(resource: string, name: string, obj: KubeObject | null) {
    const key = `${resource}/${name}`
    this.attention.delete(key)
    this.ownerRefs.delete(key)
    if (!obj) return
    if (this.attend(resource, obj)) this.attention.add(key)
    const refs = (obj.metadata.ownerReferences ?? []).map((r) => ({
      uid: r.uid,
      apiVersion: r.apiVersion,
      kind: r.kind,
      name: r.name,
    }))
    if (refs.length > 0) this.ownerRefs.set(key, refs)
  }

  apply(entries: readonly LogEntry[]) {
    for (const e of entries) {
      if (e.rv <= this.appliedRv) continue
      const text = storedText(e)
      this.history.push({
        rv: e.rv,
        resource: e.resource,
        name: e.name,
        type: e.type,
        object: text.object,
        prev: text.prev,
        prevRv: e.prevRv,
      })
      if (e.type !== 'MODIFIED' || !e.prev || graphEdgesChanged(e.resource, e.prev, e.object))
        this.setEdges(e.resource, e.name, e.type === 'DELETED' ? null : e.object)
      if (e.type === 'DELETED') {
        this.rows(e.resource).delete(e.name)
        this.index(e.resource, e.name, null)
      } else {
        this.rows(e.resource).set(e.name, {
          rv: e.rv,
          labels: { ...(e.object.metadata.labels ?? {}) },
          text: text.object,
        })
        this.index(e.resource, e.name, e.object)
      }
      this.appliedRv = e.rv
    }
    this.state.set('applied_rv', String(this.appliedRv))
    this.trimHistory()
  }

  reset(objects: { resource: string; name: string; rv: number; object: KubeObject }[], atRv: number) {
    this.objects.clear()
    this.attention.clear()
    this.ownerRefs.clear()
    this.edges.clear()
    this.history = []
    for (const o of objects) {
      this.setEdges(o.resource, o.name, o.object)
      this.rows(o.resource).set(o.name, {
        rv: o.rv,
        labels: { ...(o.object.metadata.labels ?? {}) },
        text: encodeStored(o.object, o.resource),
      })
      this.index(o.resource, o.name, o.object)
    }
    this.appliedRv = atRv
    this.floorRv = atRv
    this.state.set('applied_rv', String(atRv))
    this.state.set('floor_rv', String(atRv))
  }

  advance(rv: number) {
    if (rv <= this.appliedRv) return
    this.appliedRv = rv
    this.state.set('applied_rv', String(rv))
  }

  private trimHistory() {
    const excess = this.history.length - this.historyRetain
    if (excess <= 0) return
    const cut = this.history[excess - 1]!.rv
    this.history = this.history.slice(excess)
    this.floorRv = Math.max(this.floorRv, cut)
    this.state.set('floor_rv', String(this.floorRv))
  }

  historySince(afterRv: number, limit = 1_000_000): LogEntry[] {
    return this.history
      .filter((h) => h.rv > afterRv)
      .slice(0, limit)
      .map((h) => ({
        rv: h.rv,
        type: h.type,
        resource: h.resource,
        namespace: '',
        name: h.name,
        object: materialize(h.object, h.rv),
        prev: h.prev !== null && h.prevRv !== null ? materialize(h.prev, h.prevRv) : null,
        prevRv: h.prevRv,
      }))
  }

  listSource(resource: string): ListSource {
    const history = this.history.filter((h) => h.resource === resource)
    return memoryListSource(this.sorted(resource), history, this.appliedRv, this.floorRv)
  }
}
