// resourceVersion strings as kube parses them (storage.APIObjectVersioner over strconv.ParseUint): "" and "0" mean
// "unset", anything else must be a base-10 unsigned integer. One parser for query parameters and object metadata.
import { fail, ok, statuses, type Result } from './status'

/** The largest resourceVersion we compare exactly; Go accepts up to 2^64-1, and every such value is "in the future". */
const MAX_RV = Number.MAX_SAFE_INTEGER

/** Go's strconv.ParseUint(s, 10, 64) error text, or null when `s` parses. */
function parseUintError(s: string): string | null {
  if (!/^[0-9]+$/.test(s)) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`
  if (BigInt(s) > 0xffffffffffffffffn) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`
  return null
}

/**
 * Parses a resourceVersion; 0 for "" and "0". A value kube cannot parse is a 400 carrying kube's message (kube itself
 * answers these with a 500, an error its storage layer never converts; we refuse bad input as bad input).
 */
export function parseResourceVersion(value: string, field = 'resourceVersion'): Result<number> {
  if (value === '' || value === '0') return ok(0)
  const bad = parseUintError(value)
  if (bad) return fail(statuses.badRequest(`${field}: Invalid value: ${JSON.stringify(value)}: ${bad}`))
  return ok(Math.min(Number(value), MAX_RV))
}

/** The same parse for metadata.resourceVersion, whose failure kube reports with strconv's text alone. */
export function parseObjectResourceVersion(value: string | undefined): Result<number> {
  if (value === undefined || value === '' || value === '0') return ok(0)
  const bad = parseUintError(value)
  return bad ? fail(statuses.badRequest(bad)) : ok(Math.min(Number(value), MAX_RV))
}
