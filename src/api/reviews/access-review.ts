// The access reviews of authorization.k8s.io/v1 (pkg/registry/authorization/{selfsubjectaccessreview,
// subjectaccessreview,localsubjectaccessreview}/rest.go): validate, ask the authorizer the request's own chain
// (system:masters, then RBAC), and answer 201 with the request as kube echoes it and the verdict in status. RBAC only
// allows or has no opinion, so `denied` is never set.
import type { Context } from 'hono'
import { fieldError } from '../../registry/field-errors'
import { StatusError, statuses } from '../../registry/status'
import { LocalSubjectAccessReview, SelfSubjectAccessReview, SubjectAccessReview } from '../../schema/authorization'
import {
  accessAttributes,
  evaluationError,
  goAccessSpec,
  goAccessStatus,
  nonResourceDisallowed,
  subjectOf,
  validateAccessSpec,
} from './access-spec'
import { sharpObjectMeta } from './go-sharp-v'
import { field, isObject, metaIsEmpty, omitEmpty } from './go-values'
import { created, invalid, managedFieldsOf, readReview, type ReviewKind } from './review-request'

type Ctx = Context<{ Bindings: Env }>

const GROUP = 'authorization.k8s.io'
/** The Go zero value of the three kinds, as the field manager compares a create against it. */
const ZERO = { spec: {}, status: { allowed: false } }

type Mode = 'self' | 'subject' | 'local'

const KINDS: Record<Mode, ReviewKind> = {
  self: { group: GROUP, kind: 'SelfSubjectAccessReview', schema: SelfSubjectAccessReview },
  subject: { group: GROUP, kind: 'SubjectAccessReview', schema: SubjectAccessReview },
  local: { group: GROUP, kind: 'LocalSubjectAccessReview', schema: LocalSubjectAccessReview },
}

async function review(c: Ctx, mode: Mode, namespace: string): Promise<Response> {
  const access = c.get('access')
  const r = await readReview(c, KINDS[mode], namespace)
  const spec = goAccessSpec(r.object.spec, mode !== 'self')
  const managed = managedFieldsOf(r, { spec, status: goAccessStatus(r.object.status) }, ZERO)

  const errors = validateAccessSpec(spec, mode !== 'self')
  const local = mode === 'local'
  if (!metaIsEmpty(r.meta, local ? ['namespace'] : [])) {
    const value = sharpObjectMeta(r.meta, managed, r.now)
    const detail = local ? 'must be empty except for namespace' : 'must be empty'
    errors.push({ type: 'FieldValueInvalid', field: 'metadata', message: `Invalid value: ${value}: ${detail}` })
  }
  if (local) {
    const resource = spec.resourceAttributes
    if (isObject(resource) && field(resource, 'namespace') !== field(r.meta, 'namespace')) {
      const ns = field(resource, 'namespace')
      errors.push(fieldError.invalid('spec.resourceAttributes.namespace', ns, 'must match metadata.namespace'))
    }
    if (isObject(spec.nonResourceAttributes)) errors.push(nonResourceDisallowed(spec.nonResourceAttributes))
  }
  if (errors.length > 0) throw invalid(GROUP, errors)
  // The REST storage's own namespace checks: the create handler already made metadata.namespace the path's.
  if (local && field(r.meta, 'namespace') !== namespace) {
    throw new StatusError(statuses.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`))
  }

  const user = mode === 'self' ? access.user : subjectOf(spec)
  const decision = await access.authorizer.authorize(accessAttributes(user, spec), access.arrivedAt)
  const status = {
    allowed: decision.allowed,
    ...omitEmpty({ reason: decision.reason, evaluationError: evaluationError(spec) }, ['reason', 'evaluationError']),
  }
  return created(c, r, managed, { spec, status })
}

/** POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews: may the requester (after impersonation) do this? */
export const createSelfSubjectAccessReview = (c: Ctx) => review(c, 'self', '')

/** POST /apis/authorization.k8s.io/v1/subjectaccessreviews: may this user or these groups do this? */
export const createSubjectAccessReview = (c: Ctx) => review(c, 'subject', '')

/** POST /apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews: the same, in one namespace. */
export const createLocalSubjectAccessReview = (c: Ctx) => review(c, 'local', c.req.param('namespace') ?? '')
