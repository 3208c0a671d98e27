// The ServiceAccount issuer's OIDC discovery bodies as kube serves them (pkg/serviceaccount/openidmetadata.go,
// pkg/routes/openidmetadata.go; digest §2.4): /.well-known/openid-configuration and /openid/v1/jwks.
//
// The route sets, for both (they replace the global `Cache-Control: no-cache, private`):
//   /.well-known/openid-configuration  Content-Type: application/json          Cache-Control: public, max-age=3600
//   /openid/v1/jwks                    Content-Type: application/jwk-set+json  Cache-Control: public, max-age=3600
// The bodies are written raw (w.Write of pre-marshalled JSON): no trailing newline. Both paths are non-resource URLs
// under normal authentication and authorization (bootstrap RBAC grants them to system:serviceaccounts only).
import { compareUtf8 } from '../registry/go-strings'
import { goJson } from './go-json'
import type { PublicJwk } from './signing-key'

export const OPENID_CONFIGURATION_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'public, max-age=3600',
} as const
export const JWKS_HEADERS = {
  'content-type': 'application/jwk-set+json',
  'cache-control': 'public, max-age=3600',
} as const

/**
 * Whether kube would serve discovery at all: an https issuer with no query and no fragment, and an https jwks_uri
 * (else kube logs why and installs neither route, so both paths answer 404).
 */
export function discoveryServable(issuer: string, jwksUri: string): boolean {
  const parse = (u: string) => {
    try {
      return new URL(u)
    } catch {
      return null
    }
  }
  const iss = parse(issuer)
  const jwks = parse(jwksUri)
  return iss?.protocol === 'https:' && iss.search === '' && iss.hash === '' && jwks?.protocol === 'https:'
}

/** The openIDMetadata struct in field order; the algorithms sorted and without duplicates (sets.String.List). */
export function openidConfiguration(issuer: string, jwksUri: string, algs: readonly string[]): string {
  return goJson({
    issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set(algs)].sort(compareUtf8),
  })
}

/** jose.JSONWebKeySet: `{"keys":[...]}`, each key in go-jose's JWK field order (use, kty, kid, crv, alg, x, y). */
export function jwks(publicJwks: readonly PublicJwk[]): string {
  return goJson({
    keys: publicJwks.map((k) => ({ use: k.use, kty: k.kty, kid: k.kid, crv: k.crv, alg: k.alg, x: k.x, y: k.y })),
  })
}
