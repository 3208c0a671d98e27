// DNS rebinding protection for a server on a developer's machine: a page on evil.example that resolves its own name
// to 127.0.0.1 makes the browser send requests with `Host: evil.example`. A local server answers only the names it
// was started for, so such a page reaches nothing (the browser's same-origin rule stops it reading the answer anyway;
// this stops it writing).

/** The host name of a Host header, lowercased, without its port: `[::1]:8443` → `[::1]`, `LocalHost:1` → `localhost`. */
function hostName(header: string): string {
  const h = header.trim().toLowerCase()
  if (h.startsWith('[')) {
    const end = h.indexOf(']')
    return end < 0 ? h : h.slice(0, end + 1)
  }
  const colon = h.indexOf(':')
  return colon < 0 ? h : h.slice(0, colon)
}

/** Whether a request with this Host header may be served; an empty allow list allows any. */
export function hostAllowed(header: string | null | undefined, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true
  if (!header) return false
  return allowed.includes(hostName(header))
}
