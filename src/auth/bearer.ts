// Where a request carries its bearer token: the Authorization header as kube's bearertoken.go reads it, and the
// WebSocket subprotocol `base64url.bearer.authorization.k8s.io.<token>` as websocket/protocol.go reads it.
import { decodeRawUrlBase64 } from './raw-url-base64'

const EXTRA_SPACE_WARNING =
  'the provided Authorization header contains extra space before the bearer token, and is ignored'

/** Go's strings.TrimSpace: unicode.IsSpace at both ends (JS trim differs: it trims U+FEFF and keeps U+0085). */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g')
const goTrimSpace = (s: string) => s.replace(GO_TRIM, '')

/** What the Authorization header holds for the bearer authenticator. */
interface BearerReading {
  /** The token to check, or null: the authenticator has no opinion (no header, another scheme, no token). */
  token: string | null
  /** kube's warning (sent as `Warning: 299 - "..."`) for `Bearer  tok`, whatever happens to the request after. */
  warning?: string
}

/**
 * kube's reading (digest §1.3): TrimSpace, SplitN(" ", 3), scheme compared case-insensitively, parts past the token
 * ignored. `Bearer  tok` (two spaces) splits into an empty token and is ignored with a warning. The runtime joins
 * repeated Authorization headers with ", " where Go's Header.Get would take the first; clients send one.
 */
export function readAuthorization(header: string | null | undefined): BearerReading {
  const auth = goTrimSpace(header ?? '')
  if (auth === '') return { token: null }
  const parts = splitN(auth, ' ', 3)
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return { token: null }
  const token = parts[1]!
  if (token === '') return parts.length === 3 ? { token: null, warning: EXTRA_SPACE_WARNING } : { token: null }
  return { token }
}

/** Go's strings.SplitN: at most n parts, the last one holding the rest. */
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = []
  let rest = s
  while (out.length < n - 1) {
    const i = rest.indexOf(sep)
    if (i < 0) break
    out.push(rest.slice(0, i))
    rest = rest.slice(i + sep.length)
  }
  out.push(rest)
  return out
}

const BEARER_PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.'

/** The headers the WebSocket protocol authenticator looks at. */
interface WebSocketHeaders {
  upgrade?: string | null
  connection?: string | null
  /** Sec-WebSocket-Protocol; repeated headers arrive joined by ", ", which reads the same as one comma list. */
  protocol?: string | null
}

type WebSocketReading =
  | { token: null }
  | {
      token: string /** Sec-WebSocket-Protocol without the token: what the upgrade negotiates from. */
      protocols: string
    }
  | { error: string }

/**
 * kube's websocket protocol authenticator (pkg/authentication/request/websocket/protocol.go): only for a WebSocket
 * upgrade (Upgrade equal to `websocket` ignoring case, Connection containing `upgrade`); each comma-separated,
 * trimmed protocol starting with the prefix carries a base64url (unpadded) token. Two token protocols, a bad encoding,
 * invalid UTF-8, or a token with no other protocol to echo back are errors; an empty token is no opinion. On success
 * kube rewrites the header to the other protocols joined by ",", which `protocols` gives.
 */
export function readWebSocketProtocol(h: WebSocketHeaders): WebSocketReading {
  if ((h.upgrade ?? '').toLowerCase() !== 'websocket') return { token: null }
  if (!(h.connection ?? '').toLowerCase().includes('upgrade')) return { token: null }
  if (h.protocol === undefined || h.protocol === null) return { token: null }

  let token = ''
  let sawTokenProtocol = false
  const filtered: string[] = []
  for (const raw of h.protocol.split(',')) {
    const protocol = goTrimSpace(raw)
    if (!protocol.startsWith(BEARER_PROTOCOL_PREFIX)) {
      filtered.push(protocol)
      continue
    }
    if (sawTokenProtocol) return { error: 'multiple base64.bearer.authorization tokens specified' }
    sawTokenProtocol = true
    const bytes = decodeRawUrlBase64(protocol.slice(BEARER_PROTOCOL_PREFIX.length))
    if (bytes === null) return { error: 'invalid base64.bearer.authorization token encoding' }
    try {
      token = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
    } catch {
      return { error: 'invalid base64.bearer.authorization token' }
    }
  }
  if (token.length > 0 && filtered.length === 0) return { error: 'missing additional subprotocol' }
  if (token.length === 0) return { token: null }
  return { token, protocols: filtered.join(',') }
}
