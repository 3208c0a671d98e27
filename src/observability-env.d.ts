// Settings of the metrics and the audit log that wrangler.toml does not set (so `wrangler types` cannot see them);
// each may be absent.
interface ObservabilitySettings {
  /**
   * kube's audit policy (an audit.k8s.io/v1 Policy, YAML or JSON). Absent: every request at Metadata level, its
   * ResponseComplete stage only. An invalid policy makes every request a 503 naming it.
   */
  KUBEFLARE_AUDIT_POLICY?: string
  /** How often isolates and Durable Objects flush their metrics to D1, in ms (default 5000). */
  KUBEFLARE_METRICS_FLUSH_MS?: string
}

interface Env extends ObservabilitySettings {}

declare namespace Cloudflare {
  interface Env extends ObservabilitySettings {}
}
