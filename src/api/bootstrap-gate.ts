// The first API request an isolate serves waits until the cluster is bootstrapped (system namespaces, the
// `kubernetes` service and its endpoints), so no request ever sees a cluster without them. Later requests of the
// isolate pay nothing; a failed bootstrap is logged and tried again by the next request rather than failing this one.
import type { MiddlewareHandler } from 'hono'

let done: Promise<boolean> | null = null

/** Whether this isolate has seen the cluster bootstrapped (asked once; a failure is asked again next time). */
export function clusterBootstrapped(env: Env): Promise<boolean> {
  done ??= env.CLUSTER.getByName('cluster')
    .bootstrap()
    .then(() => true)
    .catch((e: unknown) => {
      console.error('cluster bootstrap failed; the next request retries', e)
      done = null
      return false
    })
  return done
}

export const bootstrapGate: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  await clusterBootstrapped(c.env)
  await next()
}
