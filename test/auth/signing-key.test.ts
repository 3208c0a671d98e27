// The ServiceAccount signing key: generation as a private JWK, loading, the public JWK in go-jose's field order, and
// the key ID derived as kube derives it, checked against kube's own test vector and a hand-built SPKI.
import { describe, expect, it } from 'vitest'
import { encodeRawUrlBase64 } from '../../src/auth/raw-url-base64'
import { generateSigningKey, keyIdOf, loadSigningKey } from '../../src/auth/signing-key'

// kube's pkg/serviceaccount/jwt_test.go: ecdsaPrivateKey (SEC1), ecdsaPublicKey (SPKI) and the key ID kube's tests
// expect for them ("Serializing ecdsaPublicKey as DER, taking the SHA256 of the DER bytes, URLSafe Base64-encoding").
const KUBE_EC_PRIVATE_SEC1 =
  'MHcCAQEEIEZmTmUhuanLjPA2CLquXivuwBDHTt5XYwgIr/kA1LtRoAoGCCqGSM49AwEHoUQDQgAEH6cuzP8XuD5wal6wf9M6xDljTOPLX2i8uIp/C/ASqiIGUeeKQtX0/IR3qCXyThP/dbCiHrF3v1cuhBOHY8CLVg=='
const KUBE_EC_PUBLIC_SPKI =
  'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEH6cuzP8XuD5wal6wf9M6xDljTOPLX2i8uIp/C/ASqiIGUeeKQtX0/IR3qCXyThP/dbCiHrF3v1cuhBOHY8CLVg=='
const KUBE_EC_KEY_ID = 'SoABiieYuNx4UdqYvZRVeuC6SihxgLrhLy9peHMHpTc'

const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
const b64url = (bytes: Uint8Array) => encodeRawUrlBase64(bytes)
const b64urlDecode = (s: string) =>
  fromBase64(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4))

/** kube's SEC1 key as a private JWK: d at bytes 7..39, the uncompressed point's x and y at the end. */
function kubeKeyAsJwk(): string {
  const der = fromBase64(KUBE_EC_PRIVATE_SEC1)
  const point = der.subarray(der.length - 64)
  return JSON.stringify({
    kty: 'EC',
    crv: 'P-256',
    x: b64url(point.subarray(0, 32)),
    y: b64url(point.subarray(32)),
    d: b64url(der.subarray(7, 39)),
  })
}

describe('key ID', () => {
  it("matches kube's test vector for its P-256 public key", async () => {
    const key = await crypto.subtle.importKey(
      'spki',
      fromBase64(KUBE_EC_PUBLIC_SPKI),
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['verify'],
    )
    expect(await keyIdOf(key)).toBe(KUBE_EC_KEY_ID)
  })

  it("loading kube's private key as a JWK gives kube's key ID", async () => {
    const key = await loadSigningKey(kubeKeyAsJwk())
    expect(key.kid).toBe(KUBE_EC_KEY_ID)
    expect(key.publicJwk.kid).toBe(KUBE_EC_KEY_ID)
  })

  it('equals SHA-256 over a hand-built DER SubjectPublicKeyInfo (id-ecPublicKey, prime256v1, 04||x||y)', async () => {
    const key = await loadSigningKey(await generateSigningKey())
    const prefix = Uint8Array.from(
      '3059301306072a8648ce3d020106082a8648ce3d030107034200'.match(/../g)!.map((h) => Number.parseInt(h, 16)),
    )
    const der = new Uint8Array([...prefix, 0x04, ...b64urlDecode(key.publicJwk.x), ...b64urlDecode(key.publicJwk.y)])
    expect(der).toHaveLength(91)
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der))
    // btoa-based base64url, independent of the module's encoder.
    const expected = btoa(String.fromCharCode(...digest))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    expect(key.kid).toBe(expected)
    expect(key.kid).toHaveLength(43)
  })
})

describe('generate and load', () => {
  it('generates a P-256 private JWK holding only kty, crv, x, y and d', async () => {
    const text = await generateSigningKey()
    const jwk = JSON.parse(text)
    expect(Object.keys(jwk)).toEqual(['kty', 'crv', 'x', 'y', 'd'])
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256' })
    for (const k of ['x', 'y', 'd']) expect(b64urlDecode(jwk[k])).toHaveLength(32)
  })

  it('two generated keys differ', async () => {
    expect(await generateSigningKey()).not.toBe(await generateSigningKey())
  })

  it('loads a key whose public JWK is in go-jose order, and which signs and verifies', async () => {
    const text = await generateSigningKey()
    const { x, y } = JSON.parse(text)
    const key = await loadSigningKey(text)
    expect(key.alg).toBe('ES256')
    expect(JSON.stringify(key.publicJwk)).toBe(
      `{"use":"sig","kty":"EC","kid":"${key.kid}","crv":"P-256","alg":"ES256","x":"${x}","y":"${y}"}`,
    )
    const data = new TextEncoder().encode('payload')
    const algorithm = { name: 'ECDSA', hash: 'SHA-256' }
    const signature = await crypto.subtle.sign(algorithm, key.privateKey, data)
    expect(await crypto.subtle.verify(algorithm, key.publicKey, signature, data)).toBe(true)
  })

  it('does not expose the private key material', async () => {
    const key = await loadSigningKey(await generateSigningKey())
    expect(key.privateKey.extractable).toBe(false)
    expect(JSON.stringify(key.publicJwk)).not.toContain('"d"')
  })

  it.each([
    ['not JSON', 'nope', 'service account signing key: not JSON'],
    ['not an object', '"x"', 'service account signing key: must be an EC P-256 JWK'],
    ['an RSA key', '{"kty":"RSA","n":"x","e":"AQAB","d":"y"}', 'service account signing key: must be an EC P-256 JWK'],
    [
      'another curve',
      '{"kty":"EC","crv":"P-384","x":"a","y":"b","d":"c"}',
      'service account signing key: must be an EC P-256 JWK',
    ],
    [
      'a public key only',
      '{"kty":"EC","crv":"P-256","x":"a","y":"b"}',
      'service account signing key: x, y and d must be base64url strings',
    ],
  ])('refuses %s', async (_, text, message) => {
    await expect(loadSigningKey(text)).rejects.toThrow(message)
  })
})
