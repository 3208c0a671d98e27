// The first API request an isolate serves waits until the cluster is bootstrapped (system namespaces, the
// `kubernetes` service and its endpoints), so no request ever sees a cluster without them. Later requests of the
// isolate pay nothing; a failed bootstrap is logged and tried again by the next request rather than failing this one.
import type { MiddlewareHandler } from 'hono'

let done: Promise<void> | null = null

export const bootstrapGate: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  done ??= c.env.CLUSTER.getByName('cluster')
    .bootstrap()
    .catch((e: unknown) => {
      console.error('cluster bootstrap failed; the next request retries', e)
      done = null
    })
  await done
  await next()
}
