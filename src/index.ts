// Worker entry: the Hono app and the Durable Object classes, nothing else.
import { Hono } from 'hono'
import { DurableObject } from 'cloudflare:workers'
const app = new Hono<{ Bindings: Env }>()
app.get('/version', (c) => c.json({ major: '1' }))
export default app
export class NamespaceObject extends DurableObject<Env> {}
export class ClusterObject extends DurableObject<Env> {}
