// The ServiceAccount issuer's OIDC discovery (pkg/routes/openidmetadata.go): /.well-known/openid-configuration and
// /openid/v1/jwks, bodies and headers from src/auth/oidc-discovery.ts, written raw (no trailing newline) with their
// own Cache-Control. Both are non-resource URLs the access middleware has already authorized (bootstrap RBAC grants
// them to system:serviceaccounts). kube installs neither route without keys or with an issuer it cannot serve.
import type { Context, Hono } from 'hono'
import {
  discoveryServable,
  JWKS_HEADERS,
  jwks,
  OPENID_CONFIGURATION_HEADERS,
  openidConfiguration,
} from '../auth/oidc-discovery'
import { statuses } from '../registry/status'
import { statusResponse } from './respond'

type Ctx = Context<{ Bindings: Env }>

const CONFIGURATION_PATH = '/.well-known/openid-configuration'
const JWKS_PATH = '/openid/v1/jwks'

function serve(c: Ctx, document: 'configuration' | 'keys'): Response {
  const { config } = c.get('access')
  const key = config.signingKey
  // kube's default jwks_uri: https://<the server's external address>/openid/v1/jwks; ours is the address asked.
  const jwksUri = `https://${new URL(c.req.url).host}${JWKS_PATH}`
  if (!key || !discoveryServable(config.issuer, jwksUri)) return statusResponse(c, statuses.pathNotFound())
  if (document === 'keys') return new Response(jwks([key.publicJwk]), { headers: JWKS_HEADERS })
  const body = openidConfiguration(config.issuer, jwksUri, [key.alg])
  return new Response(body, { headers: OPENID_CONFIGURATION_HEADERS })
}

export function registerOidc(app: Hono<{ Bindings: Env }>) {
  app.get(CONFIGURATION_PATH, (c) => serve(c, 'configuration'))
  app.get(JWKS_PATH, (c) => serve(c, 'keys'))
}
