// The ServiceAccount token signing key: an ES256 (P-256) key kept as a private JWK (a Worker secret), its public JWK as
// kube's JWKS shows it, and its key ID derived as kube derives it (digest §2.1).
import { encodeRawUrlBase64 } from './raw-url-base64'

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const

/** A public key as go-jose's JSONWebKey marshals it for kube's JWKS: use, kty, kid, crv, alg, x, y in that order. */
export interface PublicJwk {
  use: 'sig'
  kty: 'EC'
  kid: string
  crv: 'P-256'
  alg: 'ES256'
  x: string
  y: string
}

/** What token issuance and verification need from a loaded key. */
export interface SigningKey {
  privateKey: CryptoKey
  publicKey: CryptoKey
  publicJwk: PublicJwk
  kid: string
  alg: 'ES256'
}

/**
 * A fresh P-256 key as private JWK JSON text (`{"kty","crv","x","y","d"}`), for `wrangler secret put`. ES256, not
 * kube's default RS256: WebCrypto signs both, and P-256 keys and signatures are a fraction of RSA's size.
 */
export async function generateSigningKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d })
}

/** Reads the secret's private JWK; throws (a configuration error, at startup) for anything but a P-256 private key. */
export async function loadSigningKey(jwkText: string): Promise<SigningKey> {
  let jwk: unknown
  try {
    jwk = JSON.parse(jwkText)
  } catch {
    throw new Error('service account signing key: not JSON')
  }
  const { kty, crv, x, y, d } = (typeof jwk === 'object' && jwk !== null ? jwk : {}) as Record<string, unknown>
  if (kty !== 'EC' || crv !== 'P-256') throw new Error('service account signing key: must be an EC P-256 JWK')
  if (typeof x !== 'string' || typeof y !== 'string' || typeof d !== 'string') {
    throw new Error('service account signing key: x, y and d must be base64url strings')
  }
  const privateKey = await crypto.subtle.importKey('jwk', { kty, crv, x, y, d }, EC_P256, false, ['sign'])
  const publicKey = await crypto.subtle.importKey('jwk', { kty, crv, x, y }, EC_P256, true, ['verify'])
  const kid = await keyIdOf(publicKey)
  return {
    privateKey,
    publicKey,
    kid,
    alg: 'ES256',
    publicJwk: { use: 'sig', kty: 'EC', kid, crv: 'P-256', alg: 'ES256', x, y },
  }
}

/**
 * kube's keyIDFromPublicKey: base64url without padding of SHA-256 over x509.MarshalPKIXPublicKey(pub). WebCrypto's
 * `spki` export is the same DER SubjectPublicKeyInfo (id-ecPublicKey, prime256v1, uncompressed point).
 */
export async function keyIdOf(publicKey: CryptoKey): Promise<string> {
  const der = (await crypto.subtle.exportKey('spki', publicKey)) as ArrayBuffer
  return encodeRawUrlBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', der)))
}
