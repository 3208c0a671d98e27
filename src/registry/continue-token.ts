// Continue tokens: an opaque, validated encoding of (snapshot resourceVersion, last key returned).

interface ContinuePosition {
  /** The list's snapshot: later pages show the collection as of this resourceVersion. */
  rv: number
  /** The key of the last item returned; the next page starts after it. */
  start: string
}

const VERSION = 'meta.k8s.io/v1'

export function encodeContinue(pos: ContinuePosition): string {
  const json = JSON.stringify({ v: VERSION, rv: pos.rv, start: pos.start })
  return base64url(new TextEncoder().encode(json))
}

/** Returns null for anything we did not issue (kube answers such tokens with 400). */
export function decodeContinue(token: string): ContinuePosition | null {
  try {
    const bytes = fromBase64url(token)
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes))
    if (!parsed || typeof parsed !== 'object') return null
    const { v, rv, start } = parsed as Record<string, unknown>
    if (v !== VERSION || typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv < 0) return null
    if (typeof start !== 'string' || start.length === 0) return null
    return { rv, start }
  } catch {
    return null
  }
}

function base64url(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64url(s: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('not base64url')
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4)
  const bin = atob(b64)
  return Uint8Array.from(bin, (c) => c.charCodeAt(0))
}
