// Rendering: JSON bodies with kube's headers, Status errors, and Warning headers.
import type { Context } from 'hono'
import type { Status } from '../registry/status'

export const NO_CACHE = 'no-cache, private'

/** Serializes like the apiserver: compact JSON, indented with pretty=true. */
export function json(c: Context, body: unknown, code = 200, contentType = 'application/json'): Response {
  const pretty = c.req.query('pretty') === 'true' || c.req.query('pretty') === '1'
  const text = pretty ? JSON.stringify(body, null, 2) + '\n' : JSON.stringify(body)
  const headers = new Headers({ 'Content-Type': contentType, 'Cache-Control': NO_CACHE })
  for (const w of warningsOf(c)) headers.append('Warning', `299 - ${JSON.stringify(w)}`)
  return new Response(text, { status: code, headers })
}

export function statusResponse(c: Context, status: Status): Response {
  return json(c, status, status.code)
}

/** Warnings collected while handling a request, sent as `Warning: 299 - "..."` headers. */
export function addWarnings(c: Context, warnings: string[]) {
  if (warnings.length === 0) return
  const list = (c.get('warnings' as never) as string[] | undefined) ?? []
  list.push(...warnings)
  c.set('warnings' as never, list as never)
}

function warningsOf(c: Context): string[] {
  return [...new Set((c.get('warnings' as never) as string[] | undefined) ?? [])]
}
