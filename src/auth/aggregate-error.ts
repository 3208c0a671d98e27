// apimachinery's util/errors aggregate text, which kube's unions report when no authenticator accepts a credential.

/**
 * An aggregate's Error() over its leaf messages (nested aggregates are flattened by its visit): one message alone,
 * several as `[a, b]`, each distinct message once.
 */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)]
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`
}
