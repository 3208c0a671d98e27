// OIDC discovery for the ServiceAccount issuer: both bodies byte for byte as kube writes them, their headers, and
// when kube serves them at all.
import { describe, expect, it } from 'vitest'
import {
  discoveryServable,
  JWKS_HEADERS,
  jwks,
  OPENID_CONFIGURATION_HEADERS,
  openidConfiguration,
} from '../../src/auth/oidc-discovery'
import { loadSigningKey } from '../../src/auth/signing-key'

const ISSUER = 'https://kubernetes.default.svc.cluster.local'
const JWKS_URI = 'https://203.0.113.7:6443/openid/v1/jwks'

describe('/.well-known/openid-configuration', () => {
  it('is the openIDMetadata struct in field order, no trailing newline', () => {
    expect(openidConfiguration(ISSUER, JWKS_URI, ['ES256'])).toBe(
      '{"issuer":"https://kubernetes.default.svc.cluster.local","jwks_uri":"https://203.0.113.7:6443/openid/v1/jwks",' +
        '"response_types_supported":["id_token"],"subject_types_supported":["public"],' +
        '"id_token_signing_alg_values_supported":["ES256"]}',
    )
  })

  it('lists the algorithms sorted, each once', () => {
    expect(openidConfiguration(ISSUER, JWKS_URI, ['RS256', 'ES256', 'RS256', 'ES384'])).toContain(
      '"id_token_signing_alg_values_supported":["ES256","ES384","RS256"]}',
    )
  })

  it("escapes as Go's encoder does", () => {
    expect(openidConfiguration(ISSUER, 'https://x/jwks?a=1&b=<2>', ['ES256'])).toContain(
      '"jwks_uri":"https://x/jwks?a=1\\u0026b=\\u003c2\\u003e"',
    )
  })

  it('carries kube headers', () => {
    expect(OPENID_CONFIGURATION_HEADERS).toEqual({
      'content-type': 'application/json',
      'cache-control': 'public, max-age=3600',
    })
  })
})

describe('/openid/v1/jwks', () => {
  it('is {"keys":[...]} with each key in go-jose JWK order, no trailing newline', async () => {
    // kube's P-256 test key (pkg/serviceaccount/jwt_test.go), so the body is fixed.
    const key = await loadSigningKey(
      JSON.stringify({
        kty: 'EC',
        crv: 'P-256',
        x: 'H6cuzP8XuD5wal6wf9M6xDljTOPLX2i8uIp_C_ASqiI',
        y: 'BlHnikLV9PyEd6gl8k4T_3Wwoh6xd79XLoQTh2PAi1Y',
        d: 'RmZOZSG5qcuM8DYIuq5eK-7AEMdO3ldjCAiv-QDUu1E',
      }),
    )
    expect(jwks([key.publicJwk])).toBe(
      '{"keys":[{"use":"sig","kty":"EC","kid":"SoABiieYuNx4UdqYvZRVeuC6SihxgLrhLy9peHMHpTc","crv":"P-256",' +
        '"alg":"ES256","x":"H6cuzP8XuD5wal6wf9M6xDljTOPLX2i8uIp_C_ASqiI","y":"BlHnikLV9PyEd6gl8k4T_3Wwoh6xd79XLoQTh2PAi1Y"}]}',
    )
  })

  it('writes the fields in go-jose order whatever order the key object has', () => {
    const scrambled = { y: 'Y', x: 'X', alg: 'ES256', crv: 'P-256', kid: 'K', kty: 'EC', use: 'sig' } as const
    expect(jwks([scrambled, { ...scrambled, kid: 'K2' }])).toBe(
      '{"keys":[{"use":"sig","kty":"EC","kid":"K","crv":"P-256","alg":"ES256","x":"X","y":"Y"},' +
        '{"use":"sig","kty":"EC","kid":"K2","crv":"P-256","alg":"ES256","x":"X","y":"Y"}]}',
    )
  })

  it('carries kube headers', () => {
    expect(JWKS_HEADERS).toEqual({
      'content-type': 'application/jwk-set+json',
      'cache-control': 'public, max-age=3600',
    })
  })
})

describe('when kube serves discovery', () => {
  it.each([
    [ISSUER, true],
    ['https://issuer.example.com/path', true],
    ['HTTPS://issuer.example.com', true],
    ['http://issuer.example.com', false],
    ['https://issuer.example.com?x=1', false],
    ['https://issuer.example.com#f', false],
    ['kubernetes/serviceaccount', false],
    ['', false],
  ])('issuer %j: %s', (issuer, served) => {
    expect(discoveryServable(issuer, JWKS_URI)).toBe(served)
  })

  it.each([
    [JWKS_URI, true],
    ['http://203.0.113.7:6443/openid/v1/jwks', false],
    ['not a url', false],
  ])('jwks_uri %j: %s', (jwksUri, served) => {
    expect(discoveryServable(ISSUER, jwksUri)).toBe(served)
  })
})
