// Pod subresources served by the Worker: binding (and the legacy bindings collection), log (plain and follow),
// eviction, and exec/attach/portforward/proxy, which virtual nodes cannot serve (see docs/architecture.md §6).
import type { Context, Hono } from 'hono'
import { statuses, StatusError, type Result } from '../registry/status'
import { fieldError } from '../registry/field-errors'
import type { KubeObject } from '../schema/meta'
import { DeleteOptions } from '../schema/meta'
import { decodeObject, handlingPrefix } from '../registry/decode'
import { readBody } from './body'
import { noteDecodedSubresource, noteDecodingRequest } from './audit-request-object'
import { json, negotiate, statusResponse } from './respond'
import { resourceEndpoint } from './negotiation'
import { int64Param, queryFlag } from './query'
import { createOptions } from './write-options'
import { call, hostFor } from './hosts'
import { admitBinding, admitEviction } from './node-admission'
import { resourceByPlural } from '../registry/resources'
import { chooseContainer, podLogRequest, type PodLogOptions } from '../registry/pod-log-request'
import { isRealNode, tunnelHttp, unreachable } from './tunnel-streams'
import { agentStream } from './agent-streams'
import { podPort, type ProxiedPod, proxyPath, proxyTarget, proxyToPod } from './agent-proxy'
import { refuseAsKubelet } from './kubelet-refusal'
import { z } from 'zod'
import { ObjectMeta } from '../schema/meta'
import { ObjectReference } from '../schema/object-reference'

type App = Hono<{ Bindings: Env }>
type Ctx = Context<{ Bindings: Env }>

const Binding = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMeta.optional(),
  target: ObjectReference,
})

const Eviction = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMeta.optional(),
  deleteOptions: DeleteOptions.optional(),
})

const pods = () => resourceByPlural('pods')!
const nsStub = (c: Ctx) => c.env.NAMESPACES.getByName(c.req.param('namespace')!)

/**
 * binding, eviction and log negotiate their answer first, as kube's create and get handlers do (none of their
 * storages converts to a Table): an Accept nothing answers, text/plain for a log included, is a 406.
 */
const negotiateFor = (c: Ctx) => negotiate(c, resourceEndpoint({ table: false, custom: false }))

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new StatusError(r.status)
  return r.value
}

async function decodeSmall<T>(c: Ctx, schema: z.ZodType, group: string, kind: string, accepts?: string[]): Promise<T> {
  noteDecodingRequest(c)
  const body = await readBody(c, handlingPrefix(kind, 'v1'))
  const decoded = decodeObject<T>({ schema, group, version: 'v1', kind, accepts }, body, 'Ignore').value
  noteDecodedSubresource(c, schema, kind, decoded as KubeObject)
  return decoded
}

async function bindPod(c: Ctx, name: string) {
  negotiateFor(c)
  const binding = await decodeSmall<z.infer<typeof Binding>>(c, Binding, '', 'Binding')
  admitBinding(c, name, binding)
  if (binding.metadata?.name && binding.metadata.name !== name) {
    throw new StatusError(
      statuses.badRequest(
        `the name of the object (${binding.metadata.name}) does not match the name on the URL (${name})`,
      ),
    )
  }
  if (!binding.target?.name) {
    throw new StatusError(statuses.invalid('Binding', name, [fieldError.required('target.name')]))
  }
  unwrap(await call(() => nsStub(c).bind(name, binding.target.name!)))
  return json(c, statuses.success(undefined, 201), 201)
}

function logOptions(c: Ctx, pod: string): PodLogOptions {
  const q = (k: string) => c.req.query(k)
  const int = (k: string, min: number) => {
    const v = q(k)
    if (v === undefined) return undefined
    const n = int64Param(v)
    if (n < min)
      throw new StatusError(
        statuses.invalid('PodLogOptions', pod, [
          fieldError.invalid(k, n, `must be greater than ${min === 0 ? 'or equal to 0' : min - 1}`),
        ]),
      )
    return n
  }
  const opts: PodLogOptions = {
    container: q('container') || undefined,
    tailLines: int('tailLines', 0),
    sinceSeconds: int('sinceSeconds', 1),
    sinceTime: q('sinceTime') || undefined,
    limitBytes: int('limitBytes', 1),
    timestamps: queryFlag(c, 'timestamps'),
    previous: queryFlag(c, 'previous'),
  }
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) {
    throw new StatusError(
      statuses.invalid('PodLogOptions', pod, [
        fieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'),
      ]),
    )
  }
  if (opts.sinceTime !== undefined && Number.isNaN(Date.parse(opts.sinceTime))) {
    throw new StatusError(
      statuses.badRequest(`sinceTime: Invalid value: ${JSON.stringify(opts.sinceTime)}: must be an RFC 3339 time`),
    )
  }
  return opts
}

const TEXT = { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private', 'Content-Encoding': 'identity' }

/** The pod if it runs on a node an agent serves (its streams go through the tunnel), else null. */
async function onRealNode(
  c: Ctx,
  name: string,
): Promise<{ pod: KubeObject & { spec?: { nodeName?: string } }; node: string } | null> {
  const found = await call(() => hostFor(c.env, pods(), c.req.param('namespace')!).get('pods', name))
  if (!found.ok) return null
  const pod = found.value as KubeObject & { spec?: { nodeName?: string } }
  const node = pod.spec?.nodeName
  return node && (await isRealNode(c.env, node)) ? { pod, node } : null
}

/** pods/log of a pod on a real node: validated as kube does, then read from the agent through the tunnel. */
async function tunnelLog(c: Ctx, name: string, opts: PodLogOptions, real: { pod: KubeObject; node: string }) {
  // The container and its state are checked here; whether a previous run exists only the agent knows.
  const checked = unwrap(podLogRequest({ rv: 0, object: real.pod }, name, { ...opts, previous: false }))
  const res = await tunnelHttp(c.env, real.node, {
    op: 'log',
    namespace: c.req.param('namespace')!,
    pod: name,
    uid: checked.uid,
    container: checked.container,
    log: {
      container: checked.container,
      previous: opts.previous,
      follow: queryFlag(c, 'follow'),
      query: checked.query,
    },
  })
  if (!res) throw new StatusError(unreachable(real.node, 'logs'))
  if (res.status !== 200)
    return new Response(res.body, { status: res.status, headers: { 'Content-Type': 'application/json' } })
  return new Response(res.body, { headers: TEXT })
}

async function podLog(c: Ctx, name: string) {
  negotiateFor(c)
  const opts = logOptions(c, name)
  const real = await onRealNode(c, name)
  if (real) return tunnelLog(c, name, opts, real)
  if (!queryFlag(c, 'follow')) {
    const text = unwrap(await call(() => nsStub(c).podLog(name, opts)))
    return new Response(text, { headers: TEXT })
  }
  const params = new URLSearchParams({ name, options: JSON.stringify(opts) })
  const upstream = await nsStub(c).fetch(`https://log.internal/log?${params}`, { headers: { Upgrade: 'websocket' } })
  const ws = upstream.webSocket
  if (upstream.status !== 101 || !ws)
    return new Response(await upstream.text(), {
      status: upstream.status,
      headers: { 'Content-Type': 'application/json' },
    })
  ws.accept()
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  const writer = writable.getWriter()
  const enc = new TextEncoder()
  let done = false
  const end = () => {
    if (done) return
    done = true
    try {
      ws.close(1000, 'done')
    } catch {
      // closed
    }
    writer.close().catch(() => undefined)
  }
  ws.addEventListener('message', (e) => {
    if (!done) writer.write(enc.encode(String(e.data))).catch(end)
  })
  ws.addEventListener('close', end)
  ws.addEventListener('error', end)
  return new Response(readable, { headers: TEXT })
}

async function evict(c: Ctx, name: string) {
  negotiateFor(c)
  const eviction = await decodeSmall<z.infer<typeof Eviction>>(c, Eviction, 'policy', 'Eviction', ['policy/v1beta1'])
  await admitEviction(c, c.req.param('namespace')!, name, eviction)
  // kube compares the names as they are: an Eviction without a name does not name this pod either.
  if ((eviction.metadata?.name ?? '') !== name) {
    throw new StatusError(statuses.badRequest(`name in URL does not match name in Eviction object`))
  }
  const query = c.req.queries('dryRun') ?? []
  createOptions(c)
  const options = eviction.deleteOptions ?? {}
  // propagateDryRun: the request's dryRun goes into the eviction's options unless they name their own, which must agree.
  const inBody = options.dryRun ?? []
  if (query.length > 0 && inBody.length > 0 && JSON.stringify(query) !== JSON.stringify(inBody)) {
    const s = statuses.internal('')
    s.message = `Non-matching dry-run options in request and content: [${query.join(' ')}] and [${inBody.join(' ')}]`
    delete s.reason
    delete s.details
    throw new StatusError(s)
  }
  const isDryRun = [...query, ...inBody].includes('All')
  const answer = await call(() => nsStub(c).evict(name, options, isDryRun))
  if (!answer.ok) return statusResponse(c, answer.status)
  return json(c, answer.value, 201)
}

/** exec, attach, portforward: validated, then refused for virtual nodes with a clear Status. */
async function streaming(c: Ctx, name: string, what: string) {
  const pod = unwrap(
    await call(() => hostFor(c.env, pods(), c.req.param('namespace')!).get('pods', name)),
  ) as KubeObject & {
    spec?: {
      nodeName?: string
      containers?: { name: string; ports?: { containerPort: number; name?: string }[] }[]
      initContainers?: { name: string }[]
      ephemeralContainers?: { name: string }[]
    }
  }
  const container = c.req.query('container')
  const names = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ].map((x) => x.name)
  if (container && !names.includes(container)) {
    throw new StatusError(statuses.badRequest(`container ${container} is not valid for pod ${name}`))
  }
  if (!container && (what === 'exec' || what === 'attach') && (pod.spec?.containers ?? []).length > 1) {
    throw new StatusError(chooseContainer(pod, name))
  }
  const node = pod.spec?.nodeName
  if (!node) throw new StatusError(statuses.badRequest(`pod ${name} does not have a host assigned`))
  if (await isRealNode(c.env, node)) {
    return agentStream(c, pod, node, what, container)
  }
  const why = `pod ${name} runs on virtual node ${JSON.stringify(node)}, which the control plane simulates: it has no processes (a node agent serves ${what})`
  return refuseAsKubelet(c, what, why)
}

export function registerPodSubresources(app: App) {
  const base = '/api/v1/namespaces/:namespace/pods/:name'
  app.post(`${base}/binding`, (c) => bindPod(c, c.req.param('name')!))
  app.post('/api/v1/namespaces/:namespace/bindings', async (c) => {
    const text = await c.req.raw.clone().text()
    let name = ''
    try {
      name = (JSON.parse(text) as { metadata?: { name?: string } }).metadata?.name ?? ''
    } catch {
      // decoded (and refused) properly below
    }
    if (!name)
      throw new StatusError(
        statuses.invalid('Binding', '', [fieldError.required('metadata.name', 'name or generateName is required')]),
      )
    return bindPod(c, name)
  })
  app.get(`${base}/log`, (c) => podLog(c, c.req.param('name')!))
  app.post(`${base}/eviction`, (c) => evict(c, c.req.param('name')!))
  for (const what of ['exec', 'attach', 'portforward']) {
    app.on(['GET', 'POST'], `${base}/${what}`, (c) => streaming(c, c.req.param('name')!, what))
  }
  // kube's pod ResourceLocation: the pod, then its port (none given: the first declared container port).
  const proxy = async (c: Ctx) => {
    const target = proxyTarget(c.req.param('name')!, 'pod')
    const pod = unwrap(
      await call(() => hostFor(c.env, pods(), c.req.param('namespace')!).get('pods', target.name)),
    ) as ProxiedPod
    const path = proxyPath(c, 'pods')
    if (path instanceof Response) return path
    return proxyToPod(c, pod, { scheme: target.scheme, port: podPort(pod, target.port, target.scheme), path })
  }
  app.all(`${base}/proxy`, proxy)
  app.all(`${base}/proxy/*`, proxy)
}
