// Settings that are not in wrangler.toml, so `wrangler types` cannot see them: the secrets (`wrangler secret put`,
// or the env file `npm start` writes) and the local server's Host allow list. Each may be absent.
interface KubeflareSecrets {
  /** kube's --token-auth-file text: `token,user,uid,"group1,group2"` per line. */
  KUBEFLARE_TOKENS?: string
  /** The ServiceAccount token signing key: a private P-256 JWK. */
  KUBEFLARE_SA_SIGNING_KEY?: string
  /**
   * The key Secrets are encrypted with at rest (src/registry/at-rest.ts): a base64 AES key of 16, 24 or 32 bytes, or
   * comma-separated `name:base64` keys (the first encrypts). Absent: Secrets are stored as they are.
   */
  KUBEFLARE_ENCRYPTION_KEY?: string
  /** The PEM of the cluster's root CA, published in every namespace as the kube-root-ca.crt ConfigMap. */
  KUBEFLARE_ROOT_CA?: string
  /** Comma-separated host names a local server answers to. */
  KUBEFLARE_ALLOWED_HOSTS?: string
  /** The D1 migrations `npm start` hands a fresh local state (src/log/local-migrations.ts): base64 JSON. */
  KUBEFLARE_LOCAL_MIGRATIONS?: string
}

// Both Env interfaces wrangler types declares (the global one and Cloudflare.Env) carry them.
declare namespace Cloudflare {
  interface Env extends KubeflareSecrets {}
}
interface Env extends KubeflareSecrets {}
