// A live collection, as an informer keeps one: list, then watch over a WebSocket from the list's resourceVersion
// (the token in kube's bearer subprotocol), apply each event, reconnect from the last resourceVersion seen when the
// socket drops, and list again when the server says that version is gone (410 Expired).
import { api, tokenProtocol } from './api.js'

const key = (o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`

/**
 * Keeps `items` (a Map key → object) current for the collection at `path` (e.g. /api/v1/namespaces/x/pods),
 * calling onChange after each update and onError with a failure (an ApiError for refusals). Returns stop().
 */
export function liveList(path, { onChange, onError, onState = () => {}, fieldSelector } = {}) {
  const items = new Map()
  let rv = ''
  let ws = null
  let stopped = false
  let retry = 0
  let timer = null
  const query = (extra) => {
    const q = new URLSearchParams(extra)
    if (fieldSelector) q.set('fieldSelector', fieldSelector)
    return q.toString()
  }

  async function list() {
    onState('listing')
    try {
      const res = await api(`${path}?${query({})}`)
      items.clear()
      for (const o of res.items ?? []) items.set(key(o), o)
      rv = res.metadata?.resourceVersion ?? ''
      onChange(items)
      watch()
    } catch (e) {
      onError(e)
      // A refusal will not go away by itself; anything else is tried again.
      if (e?.status?.code === 403 || e?.status?.code === 401) onState('refused')
      else later(list)
    }
  }

  function later(fn) {
    if (stopped) return
    const wait = Math.min(10_000, 500 * 2 ** retry++)
    onState(`reconnecting in ${Math.round(wait / 1000)} s`)
    timer = setTimeout(fn, wait)
  }

  function watch() {
    if (stopped) return
    const url = new URL(path, location.href)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    url.search = query({ watch: '1', resourceVersion: rv, allowWatchBookmarks: 'true' })
    ws = new WebSocket(url, [tokenProtocol(), 'kubeflare.watch'])
    let relist = false
    ws.onopen = () => {
      retry = 0
      onState('live')
    }
    ws.onmessage = (msg) => {
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
        if (ev.type === 'DELETED') items.delete(key(ev.object))
        else items.set(key(ev.object), ev.object)
        onChange(items)
      }
    }
    ws.onclose = () => {
      ws = null
      if (stopped) return
      if (relist) {
        rv = ''
        list()
      } else later(watch)
    }
  }

  list()
  return () => {
    stopped = true
    clearTimeout(timer)
    ws?.close(1000, 'page left')
  }
}
