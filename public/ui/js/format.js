// How values read on the page: ages as kubectl prints them, pod status as kubectl's STATUS column reasons it.

/** kubectl's short duration since a timestamp: 45s, 3m, 2h, 5d. */
export function age(ts) {
  if (!ts) return ''
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(ts)) / 1000))
  if (s < 120) return `${s}s`
  if (s < 7200) return `${Math.floor(s / 60)}m`
  if (s < 172800) return `${Math.floor(s / 3600)}h`
  return `${Math.floor(s / 86400)}d`
}

/** A pod's status word: Terminating, a waiting or terminated container's reason, or the phase. */
export function podStatus(p) {
  if (p.metadata?.deletionTimestamp) return 'Terminating'
  for (const c of p.status?.containerStatuses ?? []) {
    if (c.state?.waiting?.reason) return c.state.waiting.reason
    if (c.state?.terminated?.reason && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed')
      return c.state.terminated.reason
  }
  return p.status?.phase ?? 'Unknown'
}

export const ready = (p) => {
  const cs = p.status?.containerStatuses ?? []
  return `${cs.filter((c) => c.ready).length}/${p.spec?.containers?.length ?? cs.length}`
}

export const restarts = (p) => (p.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0)

/** Encodes one path segment. */
export const seg = (s) => encodeURIComponent(s)
