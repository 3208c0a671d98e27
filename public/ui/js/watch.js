// A live collection, as an informer keeps one: list in pages (`limit` and `continue`, kube's chunked lists), watch
// over a WebSocket from the first page's resourceVersion (the token in kube's bearer subprotocol), apply each event,
// reconnect from the last resourceVersion seen when the socket drops, and list again when the server says a version
// is gone (410 Expired: a watch's or a continue token's). Later pages load on demand; they are snapshots at the
// first page's version, so events for objects beyond the loaded pages are held until their page arrives.
import { api, tokenProtocol } from './api.js'

const key = (o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`
const order = (o) => [o.metadata?.namespace ?? '', o.metadata?.name ?? '']
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
const compareOrder = (a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1])

/** The server's list order (namespace, then name, byte-wise): pages append at the end when tables sort by it. */
export const byListOrder = (a, b) => compareOrder(order(a), order(b))

/** Objects per page: 500 (kube's reflector's), or the page's `?limit=` (e.g. /ui/?limit=50#/pods). */
export function pageSize() {
  const n = Number(new URLSearchParams(location.search).get('limit'))
  return Number.isInteger(n) && n > 0 ? Math.min(n, 5000) : 500
}

/**
 * Keeps `items` (a Map key → object) current for the collection at `path` (e.g. /api/v1/namespaces/x/pods),
 * calling onChange(items, paging) after each update and onError with a failure (an ApiError for refusals).
 * paging: {complete, shown, total (null when the server does not count, as with selectors), loading, error, more()}.
 * `eager` loads every page in turn (for pages that must see the whole collection). Returns stop().
 */
export function liveList(path, opts = {}) {
  const { onChange, onError, onState = () => {}, fieldSelector, labelSelector, limit = pageSize(), eager = false } = opts
  const items = new Map()
  // Events for objects past the loaded pages: key → {object (null once deleted), born (first seen as ADDED), at}.
  const held = new Map()
  let last = null // list order of the last object loaded, while pages remain
  let token = '' // the next page's continue token
  let remaining = null // remainingItemCount at the snapshot
  let rv = ''
  let ws = null
  let gen = 0 // bumped by each fresh list: answers and sockets of an older one are ignored
  let stopped = false
  let retry = 0
  let timer = null
  let loading = false
  let pageError = ''
  const query = (extra) => {
    const q = new URLSearchParams(extra)
    if (fieldSelector) q.set('fieldSelector', fieldSelector)
    if (labelSelector) q.set('labelSelector', labelSelector)
    return q.toString()
  }
  const pastLoaded = (o) => token !== '' && last !== null && compareOrder(order(o), last) > 0

  function paging() {
    let total = token ? null : items.size
    if (token && remaining !== null) {
      // What the snapshot had past the loaded pages, plus what was made there since, less what went.
      total = items.size + remaining
      for (const e of held.values()) total += e.born && e.object ? 1 : !e.born && !e.object ? -1 : 0
    }
    return { complete: !token, shown: items.size, total, loading, error: pageError, more: () => more() }
  }
  const changed = () => onChange(items, paging())

  /** Takes one page of the snapshot: each object as the events since (if any) left it. */
  function take(res) {
    for (const o of res.items ?? []) {
      const k = key(o)
      const e = held.get(k)
      if (!e) items.set(k, o)
      else if (e.object) items.set(k, e.object)
    }
    token = res.metadata?.continue ?? ''
    remaining = res.metadata?.remainingItemCount ?? null
    const end = res.items?.at(-1)
    if (end) last = order(end)
    // Held events now inside the loaded range: objects made after the snapshot join, the rest were applied above.
    for (const [k, e] of held) {
      if (token && last && compareOrder(e.at, last) > 0) continue
      if (e.object && !items.has(k)) items.set(k, e.object)
      held.delete(k)
    }
  }

  async function list(want = 0) {
    const mine = ++gen
    clearTimeout(timer)
    closeWatch()
    onState('listing')
    loading = true
    try {
      const res = await api(`${path}?${query({ limit })}`)
      if (mine !== gen || stopped) return
      items.clear()
      held.clear()
      token = ''
      last = null
      pageError = ''
      rv = res.metadata?.resourceVersion ?? ''
      take(res)
      loading = false
      changed()
      watch(mine)
      if (token && (eager || items.size < want)) more(want)
    } catch (e) {
      if (mine !== gen || stopped) return
      loading = false
      onError(e)
      // A refusal will not go away by itself; anything else is tried again.
      if (e?.status?.code === 403 || e?.status?.code === 401) onState('refused')
      else later(() => list(want))
    }
  }

  /** The next page (and more while fewer than `want` are loaded, or all of them when eager). */
  async function more(want = 0) {
    if (!token || loading || stopped) return
    const mine = gen
    loading = true
    pageError = ''
    changed()
    try {
      for (;;) {
        const res = await api(`${path}?${query({ limit, continue: token })}`)
        if (mine !== gen || stopped) return
        take(res)
        if (!token || (!eager && items.size >= want)) break
        changed()
      }
    } catch (e) {
      if (mine !== gen || stopped) return
      loading = false
      // The snapshot the token names is gone: start over from a fresh list, as deep as asked.
      if (e?.status?.code === 410) return list(Math.max(want, items.size + limit))
      pageError = e?.status?.message ?? String(e)
    }
    loading = false
    changed()
  }

  function later(fn) {
    if (stopped) return
    const wait = Math.min(10_000, 500 * 2 ** retry++)
    onState(`reconnecting in ${Math.round(wait / 1000)} s`)
    clearTimeout(timer)
    timer = setTimeout(fn, wait)
  }

  function closeWatch() {
    const s = ws
    ws = null
    s?.close(1000, 'list again')
  }

  function apply(ev) {
    const o = ev.object
    const k = key(o)
    if (pastLoaded(o)) {
      const before = held.get(k)
      const object = ev.type === 'DELETED' ? null : o
      held.set(k, { object, born: before ? before.born : ev.type === 'ADDED', at: order(o) })
    } else if (ev.type === 'DELETED') items.delete(k)
    else items.set(k, o)
  }

  function watch(mine) {
    if (stopped || mine !== gen) return
    const url = new URL(path, location.href)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    url.search = query({ watch: '1', resourceVersion: rv, allowWatchBookmarks: 'true' })
    const sock = new WebSocket(url, [tokenProtocol(), 'kubeflare.watch'])
    ws = sock
    let relist = false
    sock.onopen = () => {
      if (mine !== gen) return
      retry = 0
      onState('live')
    }
    sock.onmessage = (msg) => {
      if (mine !== gen) return
      let touched = false
      for (const line of String(msg.data).split('\n')) {
        if (!line.trim()) continue
        const ev = JSON.parse(line)
        if (ev.type === 'ERROR') {
          // 410: the version we hold is older than the server's history; start over from a fresh list.
          if (ev.object?.code === 410) relist = true
          else onError({ status: ev.object })
          continue
        }
        if (ev.object?.metadata?.resourceVersion) rv = ev.object.metadata.resourceVersion
        if (ev.type === 'BOOKMARK') continue
        apply(ev)
        touched = true
      }
      if (touched) changed()
    }
    sock.onclose = () => {
      if (ws === sock) ws = null
      if (stopped || mine !== gen) return
      if (relist) list(items.size)
      else later(() => watch(mine))
    }
  }

  list()
  return () => {
    stopped = true
    clearTimeout(timer)
    closeWatch()
  }
}
