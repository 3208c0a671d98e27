// The watch request a Worker sends to a host (a namespace object or the cluster-wide hub) when it opens a watch
// socket: what to watch, with the selectors already parsed, and where to start. Built and read only here.
import type { Selectors } from './selectors'
import type { WatchAsk } from './watch-start'

export interface WatchRequest {
  resource: string
  ask: WatchAsk
  selectors: Selectors
  bookmarks: boolean
}

/** The internal URL carrying a watch request (the host answers it with a WebSocket upgrade). */
export function watchUrl(r: WatchRequest): string {
  const params = new URLSearchParams({
    resource: r.resource,
    rv: r.ask.resourceVersion,
    selectors: JSON.stringify(r.selectors),
    bookmarks: r.bookmarks ? '1' : '',
    initial: r.ask.sendInitialEvents === undefined ? '' : String(r.ask.sendInitialEvents),
  })
  return `https://watch.internal/watch?${params}`
}

/** Reads a watch request back; null when it is not one. */
export function readWatchRequest(url: URL): WatchRequest | null {
  const p = url.searchParams
  const resource = p.get('resource')
  if (url.pathname !== '/watch' || !resource) return null
  const initial = p.get('initial')
  let selectors: Selectors = {}
  try {
    selectors = JSON.parse(p.get('selectors') || '{}') as Selectors
  } catch {
    return null
  }
  return {
    resource,
    ask: {
      resourceVersion: p.get('rv') ?? '',
      sendInitialEvents: initial === 'true' ? true : initial === 'false' ? false : undefined,
    },
    selectors,
    bookmarks: p.get('bookmarks') === '1',
  }
}
