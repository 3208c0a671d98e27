// Talking to the API as the signed-in identity: the bearer token lives in sessionStorage only (never a URL or a
// cookie), every request carries it, and a refusal comes back as the Status the server answered.

const TOKEN_KEY = 'kubeflare.token'

export const session = {
  get token() {
    return sessionStorage.getItem(TOKEN_KEY)
  },
  set token(v) {
    if (v) sessionStorage.setItem(TOKEN_KEY, v)
    else sessionStorage.removeItem(TOKEN_KEY)
  },
}

/** An API answer that is not 2xx: carries the server's Status. */
export class ApiError extends Error {
  constructor(status) {
    super(status?.message ?? `HTTP ${status?.code}`)
    this.status = status
  }
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * fetch with the token; JSON in and out; throws ApiError with the Status on failure. A read (or a request marked
 * `retry`) that got no answer at all, as when the browser drops requests because the machine's network changed, is
 * made again a few times before that failure is thrown.
 */
export async function api(path, { method = 'GET', body, accept = 'application/json', signal, retry = method === 'GET' } = {}) {
  const headers = { accept }
  if (session.token) headers.authorization = `Bearer ${session.token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal }
  let res
  for (let attempt = 1; ; attempt++) {
    try {
      res = await fetch(path, init)
      break
    } catch (e) {
      if (!retry || e?.name === 'AbortError' || attempt >= 4) throw e
      await pause(250 * 2 ** attempt)
    }
  }
  const text = await res.text()
  let json
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  if (!res.ok) throw new ApiError(json?.kind === 'Status' ? json : { code: res.status, message: text || res.statusText })
  return json
}

/** A streamed GET (a followed log): calls onText with each chunk until the stream ends or signal aborts. */
export async function stream(path, onText, signal) {
  const res = await fetch(path, { headers: { authorization: `Bearer ${session.token}` }, signal })
  if (!res.ok) {
    const text = await res.text()
    let status
    try {
      status = JSON.parse(text)
    } catch {
      status = { code: res.status, message: text }
    }
    throw new ApiError(status)
  }
  const reader = res.body.getReader()
  const dec = new TextDecoder()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    onText(dec.decode(value, { stream: true }))
  }
}

/** The token as kube's WebSocket bearer subprotocol carries it: base64url without padding. */
export function tokenProtocol() {
  const bytes = new TextEncoder().encode(session.token ?? '')
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return `base64url.bearer.authorization.k8s.io.${btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`
}

/** Which resources a group/version serves (discovery), or null when it is not served (or not visible). */
export async function served(groupVersion) {
  try {
    const list = await api(groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`)
    return new Set((list.resources ?? []).map((r) => r.name))
  } catch {
    return null
  }
}
