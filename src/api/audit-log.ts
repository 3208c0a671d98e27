// The audit log: kube's audit.k8s.io/v1 Events for each request, one JSON line each on the Worker's console (Workers
// Logs; stdout under `npm start`). The level and stages come from the policy (src/audit/policy.ts) evaluated on the
// request's attributes as the authenticated user (kube audits before impersonation); bodies are recorded only at
// Request and RequestResponse levels, and never for Secrets, TokenReviews and TokenRequests; headers never.
import type { Context, MiddlewareHandler } from 'hono'
import { auditPolicy } from '../audit/audit-config'
import { type AuditEventInput, auditEventLine } from '../audit/event'
import { type AuditConfig, type AuditPolicy, evaluatePolicy, LEVELS, type Stage } from '../audit/policy'
import { parseKubeYaml } from '../registry/decoding/kube-yaml'
import type { Attributes } from '../registry/rbac/attributes'
import type { Observation } from './observation'
import { observationOf } from './observation'
import { mediaType } from './body'
import { decodeKubeProtobuf } from './protobuf/decode'

const PROTOBUF = 'application/vnd.kubernetes.protobuf'

const atLeast = (config: AuditConfig, level: AuditConfig['level']) =>
  LEVELS.indexOf(config.level) >= LEVELS.indexOf(level)

/** The request's audit level and stages, decided once (as the authenticated user: kube audits before impersonating). */
export function auditConfigOf(obs: Observation, policy: AuditPolicy, attrs: Attributes): AuditConfig {
  obs.audit ??= evaluatePolicy(policy, { ...attrs, user: obs.authenticated ?? { name: '', groups: [] } })
  return obs.audit
}

/**
 * Runs after the access decision: with the attributes known, a request audited at Request level or above has its
 * body copied before a handler reads it.
 */
export const captureAuditBody: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const obs = observationOf(c)
  const policy = auditPolicy(c.env)
  if (obs?.attrs && policy.ok) {
    const config = auditConfigOf(obs, policy.policy, obs.attrs)
    const method = c.req.method
    if (atLeast(config, 'Request') && method !== 'GET' && method !== 'HEAD' && c.req.raw.body)
      obs.requestBody =
        mediaType(c) === PROTOBUF
          ? // Recorded as the JSON object it decodes to, as LogRequestObject encodes the decoded object.
            c.req.raw
              .clone()
              .arrayBuffer()
              .then((b) => JSON.stringify(decodeKubeProtobuf(new Uint8Array(b)).object))
              .catch(() => null)
          : c.req.raw
              .clone()
              .text()
              .catch(() => null)
  }
  await next()
}

/** What the audit needs of the answer, taken before the response leaves (its body can be read only then). */
interface AnswerCapture {
  status: number
  /** A copy of the body, when the event will record it (an error's Status, or the object at RequestResponse). */
  body: Response | null
}

export function captureAnswer(res: Response, config: AuditConfig, longRunning: boolean): AnswerCapture {
  const json = (res.headers.get('content-type') ?? '').includes('json')
  const wanted = !longRunning && res.body && json && (res.status >= 400 || atLeast(config, 'RequestResponse'))
  return { status: res.status, body: wanted ? res.clone() : null }
}

/** X-Forwarded-For's addresses, then X-Real-Ip, then the client's address (kube's utilnet.SourceIPs). */
function sourceIPs(c: Context): string[] {
  const ips = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const h of ['x-real-ip', 'cf-connecting-ip']) {
    const v = c.req.header(h)?.trim()
    if (v && !ips.includes(v)) ips.push(v)
  }
  return ips
}

/**
 * A create's or update's YAML body as kube's audit records it: LogRequestObject encodes the decoded object as JSON.
 * (An apply patch in YAML is logged raw by LogRequestPatch as if it were JSON, which kube's JSON log backend cannot
 * encode: it is left out here.)
 */
function yamlObject(c: Context, text: string): unknown {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/yaml' || (c.req.method !== 'POST' && c.req.method !== 'PUT')) return undefined
  const parsed = parseKubeYaml(text)
  return 'value' in parsed ? parsed.value : undefined
}

const parse = (text: string | null | undefined): unknown => {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Drops metadata.managedFields from an object and a list's items (the policy's omitManagedFields). */
function withoutManagedFields(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v
  const o = v as { metadata?: Record<string, unknown>; items?: unknown[] }
  const copy: Record<string, unknown> = { ...o }
  if (o.metadata && 'managedFields' in o.metadata) {
    const { managedFields: _, ...meta } = o.metadata
    copy.metadata = meta
  }
  if (Array.isArray(o.items)) copy.items = o.items.map(withoutManagedFields)
  return copy
}

/**
 * The request's events, written as the request ends: RequestReceived (unless omitted), then ResponseStarted for a
 * long-running request whose stream began (its end is not seen here) or ResponseComplete for every other.
 */
export async function writeAudit(
  c: Context,
  obs: Observation,
  config: AuditConfig,
  attrs: Attributes,
  answer: AnswerCapture,
  longRunning: boolean,
  endedAt: number,
): Promise<void> {
  if (config.level === 'None') return
  const base: Omit<AuditEventInput, 'stage' | 'stageTimestamp'> = {
    level: config.level,
    auditID: obs.auditID,
    requestURI: obs.requestURI,
    verb: attrs.verb,
    user: obs.authenticated,
    impersonatedUser: obs.impersonated,
    sourceIPs: sourceIPs(c),
    userAgent: c.req.header('user-agent'),
    objectRef: attrs.resourceRequest
      ? {
          resource: attrs.resource,
          namespace: attrs.namespace,
          name: attrs.name,
          apiGroup: attrs.apiGroup,
          apiVersion: attrs.apiVersion,
          subresource: attrs.subresource,
        }
      : undefined,
    requestReceivedTimestamp: obs.arrivedAt,
    annotations: obs.decision
      ? {
          'authorization.k8s.io/decision': obs.decision.allowed ? 'allow' : 'forbid',
          'authorization.k8s.io/reason': obs.decision.reason,
        }
      : undefined,
  }
  const omitted = new Set<Stage>(config.omitStages)
  const lines: string[] = []
  if (!omitted.has('RequestReceived'))
    lines.push(auditEventLine({ ...base, stage: 'RequestReceived', stageTimestamp: obs.arrivedAt }))
  const started = longRunning && (answer.status === 101 || answer.status === 200)
  const stage: Stage = started ? 'ResponseStarted' : 'ResponseComplete'
  if (!omitted.has(stage)) {
    const body = answer.body ? parse(await answer.body.text().catch(() => null)) : undefined
    const status = body as
      | { kind?: string; status?: string; message?: string; reason?: string; details?: unknown }
      | undefined
    const isStatus = status?.kind === 'Status'
    const tidy = (v: unknown) => (config.omitManagedFields ? withoutManagedFields(v) : v)
    const requestText = atLeast(config, 'Request') && obs.requestBody ? await obs.requestBody : null
    // The handler's LogRequestObject filled what the request left empty from the decoded object (a create's name),
    // after RequestReceived was written.
    const learned = obs.requestObjectRef
    const objectRef =
      base.objectRef && learned
        ? {
            ...base.objectRef,
            namespace: base.objectRef.namespace || learned.namespace,
            name: base.objectRef.name || learned.name,
            uid: learned.uid,
            resourceVersion: learned.resourceVersion,
          }
        : base.objectRef
    lines.push(
      auditEventLine({
        ...base,
        objectRef,
        stage,
        stageTimestamp: endedAt,
        responseStatus: isStatus
          ? {
              status: status.status,
              message: status.message,
              reason: status.reason,
              details: status.details,
              code: answer.status,
            }
          : { code: answer.status },
        requestObject: obs.requestDecodedHere
          ? obs.requestObject === undefined
            ? undefined
            : tidy(obs.requestObject)
          : requestText
            ? tidy(parse(requestText) ?? yamlObject(c, requestText))
            : undefined,
        responseObject: atLeast(config, 'RequestResponse') && body !== undefined ? tidy(body) : undefined,
      }),
    )
  }
  for (const line of lines) console.log(line)
}
