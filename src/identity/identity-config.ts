// The identity settings of this deployment, read once per isolate from the Worker's environment: the static tokens
// (a secret holding kube's --token-auth-file text), the ServiceAccount signing key (a secret holding a private JWK),
// anonymous access, the authorization mode, the ServiceAccount issuer, the Host names a local server answers to, and
// whether requests are rate limited. A configuration kube-apiserver would refuse to start with is reported on every
// request (503) rather than served half-configured.
import { loadSigningKey, type SigningKey } from '../auth/signing-key'
import { StaticTokens } from '../auth/token-file'

/** kube's default --service-account-issuer in kubeadm clusters; its API audiences default to it. */
const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local'

export interface IdentityConfig {
  tokens: StaticTokens | null
  signingKey: SigningKey | null
  issuer: string
  /** --api-audiences: what a ServiceAccount token must be meant for to authenticate to this API. */
  apiAudiences: string[]
  anonymous: boolean
  /** KUBEFLARE_AUTHORIZATION_MODE=AlwaysAllow: every authenticated request is allowed (no RBAC). */
  alwaysAllow: boolean
  /** Lowercase host names (no port) requests must carry; empty: any (deployed behind Cloudflare's own routing). */
  allowedHosts: string[]
  rateLimited: boolean
}

/** The part of Env this module reads; the secrets are optional, as a deployment may have neither. */
interface IdentityEnv {
  KUBEFLARE_TOKENS?: string
  KUBEFLARE_SA_SIGNING_KEY?: string
  KUBEFLARE_ALLOWED_HOSTS?: string
  KUBEFLARE_ANONYMOUS_AUTH?: string
  KUBEFLARE_AUTHORIZATION_MODE?: string
  KUBEFLARE_SERVICE_ACCOUNT_ISSUER?: string
  KUBEFLARE_RATE_LIMIT?: string
}

const MODES = new Set(['RBAC', 'AlwaysAllow'])

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  if (value === 'true') return true
  if (value === 'false') return false
  throw new Error(`${name} must be "true" or "false", not ${JSON.stringify(value)}`)
}

async function read(env: IdentityEnv): Promise<IdentityConfig> {
  const mode = env.KUBEFLARE_AUTHORIZATION_MODE || 'RBAC'
  if (!MODES.has(mode))
    throw new Error(`KUBEFLARE_AUTHORIZATION_MODE must be RBAC or AlwaysAllow, not ${JSON.stringify(mode)}`)
  const rate = env.KUBEFLARE_RATE_LIMIT || 'on'
  if (rate !== 'on' && rate !== 'off')
    throw new Error(`KUBEFLARE_RATE_LIMIT must be on or off, not ${JSON.stringify(rate)}`)
  const tokens = env.KUBEFLARE_TOKENS ? await StaticTokens.fromCsv(env.KUBEFLARE_TOKENS, 'KUBEFLARE_TOKENS') : null
  for (const w of tokens?.warnings ?? []) console.warn(w)
  const signingKey = env.KUBEFLARE_SA_SIGNING_KEY ? await loadSigningKey(env.KUBEFLARE_SA_SIGNING_KEY) : null
  const issuer = env.KUBEFLARE_SERVICE_ACCOUNT_ISSUER || DEFAULT_ISSUER
  return {
    tokens,
    signingKey,
    issuer,
    apiAudiences: [issuer],
    anonymous: flag('KUBEFLARE_ANONYMOUS_AUTH', env.KUBEFLARE_ANONYMOUS_AUTH, true),
    alwaysAllow: mode === 'AlwaysAllow',
    allowedHosts: (env.KUBEFLARE_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
    rateLimited: rate === 'on',
  }
}

type Loaded = { ok: true; config: IdentityConfig } | { ok: false; error: string }

// Keyed by the settings' text, so an isolate reads (and hashes) them once, and a test running the app with other
// settings gets its own.
const loaded = new Map<string, Promise<Loaded>>()

// The Worker's env object is the same from request to request: found by identity first, with no key to build.
const byEnv = new WeakMap<object, Promise<Loaded>>()

/** The configuration for these settings, or why it cannot be used (never a secret's value). */
export function identityConfig(env: IdentityEnv): Promise<Loaded> {
  const known = byEnv.get(env)
  if (known) return known
  const key = JSON.stringify([
    env.KUBEFLARE_TOKENS,
    env.KUBEFLARE_SA_SIGNING_KEY,
    env.KUBEFLARE_ALLOWED_HOSTS,
    env.KUBEFLARE_ANONYMOUS_AUTH,
    env.KUBEFLARE_AUTHORIZATION_MODE,
    env.KUBEFLARE_SERVICE_ACCOUNT_ISSUER,
    env.KUBEFLARE_RATE_LIMIT,
  ])
  let config = loaded.get(key)
  if (!config) {
    config = read(env).then(
      (c): Loaded => ({ ok: true, config: c }),
      (e: unknown): Loaded => ({ ok: false, error: e instanceof Error ? e.message : String(e) }),
    )
    if (loaded.size > 8) loaded.clear()
    loaded.set(key, config)
  }
  byEnv.set(env, config)
  return config
}
