// The per-identity request budget, kept by the platform's rate limiter (the Workers rate-limit binding, configured in
// wrangler.toml: requests per period per key and Cloudflare location). Each request is counted once when it starts,
// so a watch or a followed log costs one request however long it stays open.
import { type Status, statuses } from '../registry/status'

/** What clients are told to wait; client-go retries a 429 after Retry-After on its own. */
const RETRY_AFTER_SECONDS = 1

/** kube's text for a request its flow control turned away (kube writes it as plain text; a Status carries it here). */
const MESSAGE = 'Too many requests, please try again later.'

/** The 429 to answer when `key` has spent its budget, else null. A limiter that fails lets the request through. */
export async function rateLimited(
  env: Env,
  key: string | null,
): Promise<{ status: Status; headers: Record<string, string> } | null> {
  if (key === null) return null
  try {
    const { success } = await env.RATE_LIMITER.limit({ key })
    if (success) return null
  } catch (e) {
    console.error('rate limiter unavailable', e)
    return null
  }
  return {
    status: statuses.tooManyRequests(MESSAGE, RETRY_AFTER_SECONDS),
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  }
}
