// Which kinds are encrypted at rest (their rows' encryptAtRest) and under which key (the KUBEFLARE_ENCRYPTION_KEY
// secret), set for the isolate by everything that reads or writes stored objects: each Durable Object when it starts,
// the Worker on each request (it reads D1 for cluster-wide lists).
import { configureEncryption } from './at-rest'
import { kinds } from './resources'

const encrypts = (resource: string) => kinds.byPlural(resource)?.encryptAtRest === true

/**
 * Configures encryption at rest from the Worker's environment (the secret is absent from the generated Env type:
 * src/env-secrets.d.ts); answers what is wrong with the key setting, or null.
 */
export const configureEncryptionAtRest = (env: object): string | null =>
  configureEncryption((env as { KUBEFLARE_ENCRYPTION_KEY?: string }).KUBEFLARE_ENCRYPTION_KEY, encrypts)
