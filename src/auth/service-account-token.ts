// ServiceAccount tokens as kube's TokenRequest issues them and its bound-token authenticator checks them
// (pkg/serviceaccount claims.go and jwt.go; digest §2.1, §2.3): the claims, their bytes, and the checks in kube's order
// with kube's error texts.
import { CompactSign, compactVerify, errors } from 'jose'
import { goQuote } from '../registry/go-strings'
import { rfc3339 } from '../registry/time'
import type { UserInfo } from '../registry/user-info'
import { aggregate } from './aggregate-error'
import { type Claims, decodeClaims, isObject, type Ref } from './service-account-claims'
import { goJson } from './go-json'
import { decodeRawUrlBase64 } from './raw-url-base64'
import type { SigningKey } from './signing-key'

const SA_PREFIX = 'system:serviceaccount:'
const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts'
const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id'
/** go-jose's DefaultLeeway, which kube's time checks and its "deleted before now - leeway" rule use. */
const LEEWAY_MS = 60_000

/** The one object a token may be bound to; a pod-bound token also names the pod's node when the pod has one. */
export type BoundObject =
  | { kind: 'Pod'; name: string; uid: string; node?: { name: string; uid?: string } }
  | { kind: 'Secret'; name: string; uid: string }
  | { kind: 'Node'; name: string; uid: string }

export interface TokenRequestClaims {
  issuer: string
  namespace: string
  serviceAccount: Ref
  /** spec.audiences, already defaulted to the API audiences by the caller. */
  audiences: readonly string[]
  expirationSeconds: number
  boundObject?: BoundObject
  /** Only for kube's extended tokens (exp a year out, warnafter at the requested 3607 s), decided by the caller. */
  warnAfterSeconds?: number
  now: Date
}

/** A ref as kube's `ref` struct marshals it: name and uid, each omitted when empty. */
const ref = (r: { name: string; uid?: string }) => ({
  ...(r.name !== '' ? { name: r.name } : {}),
  ...(r.uid !== undefined && r.uid !== '' ? { uid: r.uid } : {}),
})

/**
 * Signs a token with kube's claims. go-jose merges the public claims, the `kubernetes.io` private claims and `iss`
 * into maps, so every level's keys come out sorted; the payload is written here in that order (jose signs the bytes
 * it is given). `aud` is always an array. iat = nbf = now and exp = now + expirationSeconds, in whole seconds.
 */
export async function issueToken(
  c: TokenRequestClaims,
  key: SigningKey,
): Promise<{ token: string; expirationTimestamp: string }> {
  const now = Math.floor(c.now.getTime() / 1000)
  const exp = now + c.expirationSeconds
  const b = c.boundObject
  const kube = {
    ...(c.namespace !== '' ? { namespace: c.namespace } : {}),
    ...(b?.kind === 'Pod' && b.node ? { node: ref(b.node) } : {}),
    ...(b?.kind === 'Node' ? { node: ref(b) } : {}),
    ...(b?.kind === 'Pod' ? { pod: ref(b) } : {}),
    ...(b?.kind === 'Secret' ? { secret: ref(b) } : {}),
    serviceaccount: ref(c.serviceAccount),
    ...(c.warnAfterSeconds ? { warnafter: now + c.warnAfterSeconds } : {}),
  }
  const payload = {
    ...(c.audiences.length > 0 ? { aud: [...c.audiences] } : {}),
    exp,
    iat: now,
    ...(c.issuer !== '' ? { iss: c.issuer } : {}),
    jti: crypto.randomUUID(),
    'kubernetes.io': kube,
    nbf: now,
    sub: SA_PREFIX + c.namespace + ':' + c.serviceAccount.name,
  }
  // The header is {"alg","kid"} in that order (go-jose writes its header map sorted; jose keeps insertion order).
  const token = await new CompactSign(new TextEncoder().encode(goJson(payload)))
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .sign(key.privateKey)
  return { token, expirationTimestamp: rfc3339(new Date(exp * 1000)) }
}

/** A verification key: kube picks keys by the token's `kid`, or tries all of them when the token has none. */
interface VerificationKey {
  kid: string
  publicKey: CryptoKey
}

/** The live object a claim names: its uid and, while it is being deleted, its deletionTimestamp (RFC 3339). */
export interface LiveObject {
  uid: string
  deletionTimestamp?: string | null
}
type Lookup = (namespace: string, name: string) => Promise<LiveObject | null>

export interface VerifyOptions {
  keys: readonly VerificationKey[]
  /** --service-account-issuer values; a token whose unverified `iss` is not one of them is not ours. */
  issuer: string | readonly string[]
  /** The API audiences (kube defaults them to the first issuer): a token's audiences must meet them. */
  audiences: readonly string[]
  /** Audiences asked for instead of the API's (TokenReview's spec.audiences). */
  requestedAudiences?: readonly string[]
  /** The live ServiceAccount. */
  lookup: Lookup
  /** Bound objects; a token bound to an object kind with no lookup given is refused rather than trusted. */
  lookupPod?: Lookup
  lookupSecret?: Lookup
  lookupNode?: (name: string) => Promise<LiveObject | null>
  now: Date
}

/** A token authenticator's three answers, as kube's (user, ok, err): a user, an error, or no opinion. */
export type TokenVerdict =
  | { status: 'authenticated'; user: UserInfo; audiences: string[] }
  | { status: 'rejected'; reason: string }
  | { status: 'not-mine' }

/** What the authentication chain holds: a verifier with its keys, issuers, audiences and lookups fixed. */
export interface ServiceAccountVerifier {
  verify(token: string): Promise<TokenVerdict>
}

const NOT_MINE: TokenVerdict = { status: 'not-mine' }
const reject = (reason: string): TokenVerdict => ({ status: 'rejected', reason })

/** The JSON of a base64url part, or undefined where Go's decoding or json.Unmarshal would fail. */
function jsonPart(part: string): unknown {
  const bytes = decodeRawUrlBase64(part)
  if (bytes === null) return undefined
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
}

/**
 * kube's bound-token authenticator, step by step (digest §2.3): the unverified `iss` decides whether the token is ours
 * (else no opinion), then the signature by `kid`, the verified issuer, the audiences, the times with a minute's leeway,
 * and the live ServiceAccount and bound objects. Reasons are kube's texts (logs and TokenReview status.error).
 */
export async function verifyToken(token: string, o: VerifyOptions): Promise<TokenVerdict> {
  const issuers = new Set(typeof o.issuer === 'string' ? [o.issuer] : o.issuer)
  // hasCorrectIssuer: not JSON serialization, three parts, a payload whose iss is one of ours.
  // (JS trim stands in for Go's TrimSpace: they differ on U+0085 and U+FEFF, and such a token fails the checks below.)
  if (token.trim().startsWith('{')) return NOT_MINE
  const parts = token.split('.')
  if (parts.length !== 3) return NOT_MINE
  const peek = jsonPart(parts[1]!)
  if (!isObject(peek) || typeof peek.iss !== 'string' || !issuers.has(peek.iss)) return NOT_MINE
  // jwt.ParseSigned: a header that is a JSON object (kid a string if present) and a decodable signature.
  const header = jsonPart(parts[0]!)
  if (!isObject(header) || (header.kid !== undefined && typeof header.kid !== 'string')) return NOT_MINE
  if (decodeRawUrlBase64(parts[2]!) === null) return NOT_MINE

  const kid = typeof header.kid === 'string' ? header.kid : ''
  const keys = kid === '' ? o.keys : o.keys.filter((k) => k.kid === kid)
  if (keys.length === 0) return reject('invalid signature, no keys found')
  const failures: string[] = []
  let payload: Uint8Array | null = null
  for (const k of keys) {
    try {
      payload = (await compactVerify(token, k.publicKey, { algorithms: ['ES256'] })).payload
      break
    } catch (e) {
      failures.push(joseFailure(e))
    }
  }
  if (payload === null) return reject(aggregate(failures))

  const claims = decodeClaims(payload)
  if (typeof claims === 'string') return reject(claims)
  if (!issuers.has(claims.iss)) return reject(`token issuer ${goQuote(claims.iss)} is invalid`)

  // A token without aud is a legacy one: it counts as holding the API audiences.
  const tokenAuds = claims.aud.length === 0 ? o.audiences : claims.aud
  const requested = o.requestedAudiences ?? o.audiences
  const auds = requested.filter((a) => tokenAuds.includes(a))
  if (auds.length === 0 && o.audiences.length !== 0) {
    return reject(
      `token audiences ${goQuoteList(tokenAuds)} is invalid for the target audiences ${goQuoteList(requested)}`,
    )
  }

  const timeError = checkTimes(claims, o.now.getTime())
  if (timeError !== null) return reject(timeError)
  const objectError = await checkObjects(claims, o)
  if (objectError !== null) return reject(objectError)
  return { status: 'authenticated', user: userOf(claims), audiences: auds }
}

/** go-jose's wording for the failures jose reports differently. */
function joseFailure(e: unknown): string {
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'go-jose/go-jose: error in cryptographic primitive'
  if (e instanceof errors.JOSEAlgNotAllowed) return 'go-jose/go-jose: unknown/unsupported algorithm'
  return e instanceof Error ? e.message : String(e)
}

/** %q of a []string: `["a" "b"]`. */
const goQuoteList = (list: readonly string[]) => `[${list.map(goQuote).join(' ')}]`

/** go-jose's Claims.Validate with DefaultLeeway, in its order: nbf, then exp, then iat. */
function checkTimes(c: Claims, nowMs: number): string | null {
  if (c.nbf !== null && nowMs + LEEWAY_MS < c.nbf * 1000) return 'service account token is not valid yet'
  if (c.exp !== null && nowMs - LEEWAY_MS > c.exp * 1000) return 'service account token has expired'
  if (c.iat !== null && nowMs + LEEWAY_MS < c.iat * 1000) return 'service account token is issued in the future'
  return null
}

/** Deleted before now - leeway: kube lets a just-deleted object's tokens live out the leeway. */
const deletedBefore = (o: LiveObject, nowMs: number) =>
  o.deletionTimestamp !== undefined &&
  o.deletionTimestamp !== null &&
  Date.parse(o.deletionTimestamp) < nowMs - LEEWAY_MS

const INVALIDATED = 'service account token has been invalidated'

/** kube's validator's object checks: the ServiceAccount, then a bound Secret, Pod or Node; the first failure's text. */
async function checkObjects(c: Claims, o: VerifyOptions): Promise<string | null> {
  const nowMs = o.now.getTime()
  const ns = c.namespace
  const sa = await o.lookup(ns, c.serviceAccount.name)
  if (sa === null) return `serviceaccounts ${goQuote(c.serviceAccount.name)} not found`
  if (sa.uid !== c.serviceAccount.uid) {
    return `service account UID (${sa.uid}) does not match claim (${c.serviceAccount.uid})`
  }
  if (deletedBefore(sa, nowMs)) return `service account ${ns}/${c.serviceAccount.name} has been deleted`

  if (c.secret !== null) {
    const secret = o.lookupSecret ? await o.lookupSecret(ns, c.secret.name) : null
    if (secret === null) return INVALIDATED
    if (secret.uid !== c.secret.uid) {
      return `secret UID (${secret.uid}) does not match service account secret ref claim (${c.secret.uid})`
    }
    if (deletedBefore(secret, nowMs)) return INVALIDATED
  }
  if (c.pod !== null) {
    const pod = o.lookupPod ? await o.lookupPod(ns, c.pod.name) : null
    if (pod === null) return INVALIDATED
    if (pod.uid !== c.pod.uid) {
      return `pod UID (${pod.uid}) does not match service account pod ref claim (${c.pod.uid})`
    }
    if (deletedBefore(pod, nowMs)) return INVALIDATED
  } else if (c.node !== null) {
    // Bound to a Node itself (a pod-bound token's node claim is information only, never looked up).
    const node = o.lookupNode ? await o.lookupNode(c.node.name) : null
    if (node === null) return INVALIDATED
    if (node.uid !== c.node.uid) {
      return `node UID (${node.uid}) does not match service account node ref claim (${c.node.uid})`
    }
    if (deletedBefore(node, nowMs)) return INVALIDATED
  }
  return null
}

/** ServiceAccountInfo.UserInfo(): name, uid, the two groups, and the extras kube derives from the claims. */
function userOf(c: Claims): UserInfo {
  const user: UserInfo = {
    name: SA_PREFIX + c.namespace + ':' + c.serviceAccount.name,
    groups: [ALL_SERVICE_ACCOUNTS, `${ALL_SERVICE_ACCOUNTS}:${c.namespace}`],
  }
  if (c.serviceAccount.uid !== '') user.uid = c.serviceAccount.uid
  const extra: Record<string, string[]> = {}
  if (c.pod !== null && c.pod.name !== '' && c.pod.uid !== '') {
    extra['authentication.kubernetes.io/pod-name'] = [c.pod.name]
    extra['authentication.kubernetes.io/pod-uid'] = [c.pod.uid]
  }
  if (c.jti !== '') extra[CREDENTIAL_ID] = [`JTI=${c.jti}`]
  if (c.node !== null && c.node.name !== '') {
    extra['authentication.kubernetes.io/node-name'] = [c.node.name]
    if (c.node.uid !== '') extra['authentication.kubernetes.io/node-uid'] = [c.node.uid]
  }
  if (Object.keys(extra).length > 0) user.extra = extra
  return user
}
