// The request's URL, parsed once for the filters and handlers that read it (the audit filter, access, the router, the
// audit event each parsed it again: a native URL object per reading, several per request).
import type { Context } from 'hono'

const KEY = 'requestUrl' as never

/**
 * The URL of the request as it stands: a handler that replaces `c.req.raw` (a deprecated /watch/ path's rewrite) gets
 * the new one parsed. Shared by its readers, so it is never changed; a reader that edits a URL parses its own.
 */
export function requestUrl(c: Context): URL {
  const raw = c.req.raw
  const cached = c.get(KEY) as { raw: Request; url: URL } | undefined
  if (cached?.raw === raw) return cached.url
  const url = new URL(raw.url)
  c.set(KEY, { raw, url } as never)
  return url
}
