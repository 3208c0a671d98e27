// TokenRequest, the serviceaccounts/token subresource (pkg/registry/core/serviceaccount/storage/token.go, 1.31-1.33):
// a ServiceAccount token signed with this deployment's key, optionally bound to a Pod, Node or Secret, answered 201
// with the request as kube echoes it. Without a signing key kube has no such route: 404.
import type { Context, Hono } from 'hono'
import { type BoundObject, issueToken } from '../auth/service-account-token'
import { fieldError } from '../registry/field-errors'
import { goQuote } from '../registry/go-strings'
import { resourceByPlural } from '../registry/resources'
import { type Status, StatusError, statuses } from '../registry/status'
import { rfc3339 } from '../registry/time'
import type { KubeObject } from '../schema/meta'
import { TokenRequest } from '../schema/authentication'
import { call, hostFor } from './hosts'
import { admitTokenRequest } from './node-admission'
import { field, isObject, type Json, omitEmpty, stringsOf } from './reviews/go-values'
import { created, invalid, managedFieldsOf, readReview, type ReviewKind } from './reviews/review-request'
import { statusResponse } from './respond'

type Ctx = Context<{ Bindings: Env }>

const GROUP = 'authentication.k8s.io'
const KIND: ReviewKind = { group: GROUP, kind: 'TokenRequest', schema: TokenRequest, subresource: 'token' }
/** The Go zero value of a TokenRequest (no omitempty on the spec's fields nor the status'). */
const ZERO = {
  spec: { audiences: null, expirationSeconds: null, boundObjectRef: null },
  status: { token: '', expirationTimestamp: null },
}
/** SetDefaults_TokenRequestSpec. */
const DEFAULT_EXPIRATION_SECONDS = 3600
/** pkg/serviceaccount: a pod-bound token asking for exactly this lifetime is the projected volume's, and extended. */
const WARN_ONLY_BOUND_TOKEN_SECONDS = 3607
const EXTENSION_SECONDS = 24 * 365 * 60 * 60

const ok = <T>(r: { ok: true; value: T } | { ok: false; status: Status }): T => {
  if (!r.ok) throw new StatusError(r.status)
  return r.value
}

/** The spec as Go holds it after decoding (expirationSeconds defaulted, as the scheme's defaulter does). */
function goSpec(v: unknown): Json {
  const s = isObject(v) ? v : {}
  const ref = isObject(s.boundObjectRef) ? omitEmpty(s.boundObjectRef, ['kind', 'apiVersion', 'name', 'uid']) : null
  return {
    // The decoder cannot tell null from [] here; a client leaving the audiences out sends null (client-go does).
    audiences: stringsOf(s.audiences).length > 0 ? stringsOf(s.audiences) : null,
    expirationSeconds: typeof s.expirationSeconds === 'number' ? s.expirationSeconds : DEFAULT_EXPIRATION_SECONDS,
    boundObjectRef: ref,
  }
}

const goStatus = (v: unknown): Json => ({
  token: field(v, 'token'),
  expirationTimestamp: isObject(v) && typeof v.expirationTimestamp === 'string' ? v.expirationTimestamp : null,
})

/** schema.FromAPIVersionAndKind: the group, and GroupVersionKind.String() for messages. */
function groupVersionKind(apiVersion: string, kind: string): { group: string; text: string } {
  const parts = apiVersion.split('/')
  let [group, version] = ['', '']
  if (parts.length === 1) version = apiVersion
  else if (parts.length === 2) [group, version] = parts as [string, string]
  return { group, text: `${group}/${version}, Kind=${kind}` }
}

/** A bound object read from its host: a registry Get, with its empty-name refusal. */
async function getObject(env: Env, plural: string, namespace: string, name: string): Promise<KubeObject> {
  if (name === '') throw new StatusError(statuses.badRequest('Name parameter required.'))
  return ok(await call(() => hostFor(env, resourceByPlural(plural)!, namespace).get(plural, name)))
}

/** The object `ref` names, checked as kube checks it; the claims it puts in the token. */
async function boundObject(env: Env, ref: Json, namespace: string, account: string): Promise<BoundObject> {
  const name = field(ref, 'name')
  const kind = field(ref, 'kind')
  const gvk = groupVersionKind(field(ref, 'apiVersion'), kind)
  let bound: BoundObject
  if (gvk.group === '' && kind === 'Pod') {
    const pod = await getObject(env, 'pods', namespace, name)
    const spec = (pod.spec ?? {}) as { serviceAccountName?: string; nodeName?: string }
    if (account !== (spec.serviceAccountName ?? '')) {
      throw new StatusError(
        statuses.badRequest(
          `cannot bind token for serviceaccount ${goQuote(account)} to pod running with different serviceaccount name.`,
        ),
      )
    }
    bound = { kind: 'Pod', name: pod.metadata.name ?? name, uid: pod.metadata.uid ?? '' }
    if (spec.nodeName) {
      // A missing node still names itself in the claims, without a uid.
      const node = await call(() => hostFor(env, resourceByPlural('nodes')!, '').get('nodes', spec.nodeName!))
      if (!node.ok && node.status.code !== 404) throw new StatusError(statuses.internal(node.status.message ?? ''))
      bound.node = node.ok ? { name: spec.nodeName, uid: node.value.metadata.uid } : { name: spec.nodeName }
    }
  } else if (gvk.group === '' && kind === 'Node') {
    const node = await getObject(env, 'nodes', '', name)
    bound = { kind: 'Node', name: node.metadata.name ?? name, uid: node.metadata.uid ?? '' }
  } else if (gvk.group === '' && kind === 'Secret') {
    // Secrets are not served yet: every one is missing, as a registry Get of an absent secret answers.
    if (name === '') throw new StatusError(statuses.badRequest('Name parameter required.'))
    throw new StatusError(statuses.notFound({ resource: 'secrets' }, name))
  } else {
    throw new StatusError(statuses.badRequest(`cannot bind token to object of type ${gvk.text}`))
  }
  const uid = field(ref, 'uid')
  if (uid !== '' && uid !== bound.uid) {
    const why = `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`
    throw new StatusError(statuses.conflict({ resource: kind }, name, why))
  }
  return bound
}

/** POST /api/v1/namespaces/{namespace}/serviceaccounts/{name}/token. */
async function createToken(c: Ctx): Promise<Response> {
  const { config } = c.get('access')
  const key = config.signingKey
  if (!key) return statusResponse(c, statuses.pathNotFound())
  const namespace = c.req.param('namespace') ?? ''
  const name = c.req.param('name') ?? ''
  const r = await readReview(c, KIND, namespace)
  const spec = goSpec(r.object.spec)
  // NodeRestriction (a node's request) runs before the token storage judges anything, as kube's admission does.
  await admitTokenRequest(c, namespace, name, { ...r.object, spec })
  const managed = managedFieldsOf(r, { spec, status: goStatus(r.object.status) }, ZERO)

  const sent = field(r.meta, 'name')
  if (sent !== '' && sent !== name) {
    const error = fieldError.invalid('metadata.name', sent, 'must match the service account name if specified')
    throw invalid(GROUP, [error], 'TokenRequest', name)
  }
  const account = ok(
    await call(() => hostFor(c.env, resourceByPlural('serviceaccounts')!, namespace).get('serviceaccounts', name)),
  )
  if (stringsOf(spec.audiences).length === 0) spec.audiences = [...config.apiAudiences]
  const audiences = stringsOf(spec.audiences)
  const exp = spec.expirationSeconds as number
  const errors = []
  if (exp < 600)
    errors.push(fieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 10 minutes'))
  if (exp > 2 ** 32) {
    errors.push(
      fieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration larger than 2^32 seconds'),
    )
  }
  if (errors.length > 0) throw invalid(GROUP, errors, 'TokenRequest')

  const ref = spec.boundObjectRef
  const bound = isObject(ref) ? await boundObject(c.env, ref, namespace, name) : undefined
  // The projected-volume transition: such a token lives a year and says when it should have expired (warnafter).
  const extended =
    bound?.kind === 'Pod' &&
    exp === WARN_ONLY_BOUND_TOKEN_SECONDS &&
    audiences.every((a) => config.apiAudiences.includes(a))
  const { token } = await issueToken(
    {
      issuer: config.issuer,
      namespace,
      serviceAccount: { name: account.metadata.name ?? name, uid: account.metadata.uid ?? '' },
      audiences,
      expirationSeconds: extended ? EXTENSION_SECONDS : exp,
      boundObject: bound,
      warnAfterSeconds: extended ? exp : undefined,
      now: r.now,
    },
    key,
  )
  // The status reports the lifetime asked for, even for an extended token.
  const status = { token, expirationTimestamp: rfc3339(new Date(r.now.getTime() + exp * 1000)) }
  const meta = { name, namespace, creationTimestamp: rfc3339(r.now) }
  return created(c, r, managed, { spec, status }, meta)
}

/** kube's answer to another method on a create-only path (go-restful's 405, written as a Status). */
const methodNotAllowed = (c: Ctx) =>
  statusResponse(c, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server does not allow this method on the requested resource',
    reason: 'MethodNotAllowed',
    details: {},
    code: 405,
  })

export function registerTokenRequest(app: Hono<{ Bindings: Env }>) {
  const path = '/api/v1/namespaces/:namespace/serviceaccounts/:name/token'
  app.post(path, createToken)
  app.all(path, (c) =>
    c.get('access').config.signingKey ? methodNotAllowed(c) : statusResponse(c, statuses.pathNotFound()),
  )
}
