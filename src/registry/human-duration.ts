// Ages as kubectl prints them (apimachinery's duration.HumanDuration): 45s, 5m10s, 95m, 3h10m, 30h, 5d3h, 400d, 2y30d.

export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 120) return `${seconds}s`
  const minutes = Math.trunc(seconds / 60)
  if (minutes < 10) {
    const s = seconds % 60
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`
  }
  if (minutes < 180) return `${minutes}m`
  const hours = Math.trunc(minutes / 60)
  if (hours < 8) {
    const m = minutes % 60
    return m === 0 ? `${hours}h` : `${hours}h${m}m`
  }
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) {
    const h = hours % 24
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365
    const y = Math.trunc(hours / 24 / 365)
    return dy === 0 ? `${y}y` : `${y}y${dy}d`
  }
  return `${Math.trunc(hours / 24 / 365)}y`
}

/** The AGE cell: time since a timestamp, `<unknown>` when there is none. */
export function age(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>'
  return humanDuration(now.getTime() - Date.parse(timestamp))
}
