// Settings that are not in wrangler.toml, so `wrangler types` cannot see them: the secrets (`wrangler secret put`,
// or the env file `npm start` writes) and the local server's Host allow list. Each may be absent.
declare namespace Cloudflare {
  interface Env {
    /** kube's --token-auth-file text: `token,user,uid,"group1,group2"` per line. */
    KUBEFLARE_TOKENS?: string
    /** The ServiceAccount token signing key: a private P-256 JWK. */
    KUBEFLARE_SA_SIGNING_KEY?: string
    /** Comma-separated host names a local server answers to. */
    KUBEFLARE_ALLOWED_HOSTS?: string
  }
}
