// GET /metrics: the Prometheus text format, read from D1 only (no Durable Object is woken by a scrape). This isolate
// flushes what it has counted first, so a single-isolate server (`npm start`) answers exactly; other isolates and
// the Durable Objects appear as of their last flush. Who may read it is RBAC's nonResourceURL rule for /metrics
// (system:monitoring has it), judged before this runs.
import type { Context } from 'hono'
import { MetricsStore } from '../log/metrics-store'
import { storageObjects } from '../metrics/definitions'
import { EXPOSITION_CONTENT_TYPE, renderExposition, type SeriesValue } from '../metrics/exposition'
import { resourceByPlural } from '../registry/resources'
import { isolateMetrics } from './isolate-metrics'

/** kube files stored objects by group-qualified resource: `pods`, `deployments.apps`. */
function storageResource(key: string): string {
  const def = resourceByPlural(key)
  if (!def) return key
  return def.group ? `${def.plural}.${def.group}` : def.plural
}

export async function serveMetrics(c: Context<{ Bindings: Env }>): Promise<Response> {
  await isolateMetrics(c.env).flushNow(c.env)
  const { series, objects } = await new MetricsStore(c.env.DB).scrape(Date.now())
  const counted: SeriesValue[] = objects.map((o) => ({
    name: storageObjects.name,
    labels: JSON.stringify([storageResource(o.resource)]),
    value: o.count,
  }))
  return new Response(renderExposition([...series, ...counted]), {
    status: 200,
    headers: { 'Content-Type': EXPOSITION_CONTENT_TYPE, 'Cache-Control': 'no-cache, private' },
  })
}
