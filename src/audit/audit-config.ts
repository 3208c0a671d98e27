// The audit policy of this deployment: KUBEFLARE_AUDIT_POLICY read once per isolate (again only if the text
// changes), or the default (Metadata for everything) when it is absent or empty.
import { type AuditPolicy, DEFAULT_POLICY, parsePolicy } from './policy'

let cached: { text: string; result: { ok: true; policy: AuditPolicy } | { ok: false; error: string } } | null = null

/** The policy, or why the setting cannot be used (kube-apiserver would refuse to start). */
export function auditPolicy(env: {
  KUBEFLARE_AUDIT_POLICY?: string
}): { ok: true; policy: AuditPolicy } | { ok: false; error: string } {
  const text = env.KUBEFLARE_AUDIT_POLICY ?? ''
  if (cached?.text !== text) {
    cached = { text, result: text.trim() === '' ? { ok: true, policy: DEFAULT_POLICY } : parsePolicy(text) }
  }
  return cached.result
}
