// Before a request reads the kind table, this isolate's copy of the custom kinds is current enough
// (src/registry/custom/custom-kinds.ts): a request for a kind the table does not know looks the CRDs up at once (a
// CRD established a moment ago is served); discovery, OpenAPI and requests for custom kinds use a copy at most a
// second old; built-in kinds pay nothing. A deprecated custom version's requests get its Warning.
import type { MiddlewareHandler } from 'hono'
import { customKinds } from '../registry/custom/custom-kinds'
import { kinds } from '../registry/resources'
import { requestInfo } from './request-info'
import { addWarnings } from './respond'

export const customKindsGate: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const path = new URL(c.req.url).pathname
  const cluster = c.env.CLUSTER.getByName('cluster')
  if (path.startsWith('/apis/')) {
    const info = requestInfo(c.req.method, path, (k) => c.req.query(k))
    if (info?.isResourceRequest) {
      const known = kinds.served(info.apiGroup, info.apiVersion, info.resource)
      if (!known) await customKinds.ensure(cluster, Date.now())
      else if (customKinds.isCustom(known)) await customKinds.ensure(cluster)
      const def = kinds.served(info.apiGroup, info.apiVersion, info.resource)
      if (def?.warning) addWarnings(c, [def.warning])
    } else await customKinds.ensure(cluster)
  } else if (path === '/apis' || path.startsWith('/openapi')) await customKinds.ensure(cluster)
  await next()
}
