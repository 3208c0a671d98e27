// The in-memory twin of the D1 change log (src/host/change-log.ts): committed changes in resourceVersion order and
// the current-object index kept with them (as D1's trigger keeps it), compaction dropping old changes but never
// objects. Unit tests run hosts on it without D1; it counts commits and can be told to fail the next one.
import type { Change, LogEntry } from '../registry/store'
import { materialize, storedText } from '../registry/stored-json'
import type { KubeObject } from '../schema/meta'
import type { ChangeLog } from './change-log'

interface Row {
  rv: number
  change: Change
  object: string
  prev: string | null
}

export class MemoryChangeLog implements ChangeLog {
  private rows: Row[] = []
  /** scope → `resource/name` → the object's newest row (the object index). */
  private readonly objects = new Map<string, Map<string, Row>>()
  private next = 1
  private floor = 0
  /** How many commits reached the log (a failed one does not count). */
  commits = 0
  /** When set, the next commit throws this error without landing (or, with `landed`, lands and then throws). */
  failNext: { error: Error; landed?: boolean } | null = null
  private gate: Promise<void> | null = null

  /** Holds every commit until the returned function is called (tests use it to interleave writes). */
  hold(): () => void {
    let release = () => {}
    this.gate = new Promise<void>((r) => (release = r))
    return () => {
      this.gate = null
      release()
    }
  }

  async commit(changes: readonly Change[], _now: number): Promise<number[]> {
    while (this.gate) await this.gate
    const failure = this.failNext
    this.failNext = null
    if (failure && !failure.landed) throw failure.error
    const rvs = changes.map((c) => {
      const text = storedText(c)
      const rv = this.next++
      const row = { rv, change: c, object: text.object, prev: text.prev }
      this.rows.push(row)
      let scope = this.objects.get(c.namespace)
      if (!scope) this.objects.set(c.namespace, (scope = new Map()))
      if (c.type === 'DELETED') scope.delete(`${c.resource}/${c.name}`)
      else scope.set(`${c.resource}/${c.name}`, row)
      return rv
    })
    this.commits++
    if (failure) throw failure.error
    return rvs
  }

  async currentRv(): Promise<number> {
    return Math.max(this.next - 1, this.floor)
  }

  async compactedRv(): Promise<number> {
    return this.floor
  }

  async changesFor(scope: string, afterRv: number, limit: number): Promise<LogEntry[]> {
    return this.rows
      .filter((r) => r.change.namespace === scope && r.rv > afterRv)
      .slice(0, limit)
      .map(entryOf)
  }

  async objectsIn(scope: string): Promise<{ resource: string; name: string; rv: number; object: KubeObject }[]> {
    return [...(this.objects.get(scope)?.values() ?? [])].map((r) => ({
      resource: r.change.resource,
      name: r.change.name,
      rv: r.rv,
      object: materialize(r.object, r.rv),
    }))
  }

  async compact(retain: number, step = 2000): Promise<number> {
    const target = Math.min((await this.currentRv()) - retain, this.floor + step)
    if (target <= this.floor) return this.floor
    this.floor = target
    this.rows = this.rows.filter((r) => r.rv > target)
    return target
  }
}

function entryOf(r: Row): LogEntry {
  const prevRv = r.change.prevRv
  return {
    rv: r.rv,
    type: r.change.type,
    resource: r.change.resource,
    namespace: r.change.namespace,
    name: r.change.name,
    object: materialize(r.object, r.rv),
    prev: r.prev !== null && prevRv !== null ? materialize(r.prev, prevRv) : null,
    prevRv,
    text: { object: r.object, prev: r.prev },
  }
}
