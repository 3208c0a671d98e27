// SelfSubjectRulesReview (pkg/registry/authorization/selfsubjectrulesreview/rest.go): the requester's rules in a
// namespace, from the same RBAC objects authorization reads. kube answers a new object: no spec echoed, metadata
// only {"creationTimestamp":null}.
import type { Context } from 'hono'
import { selfSubjectRules } from '../../registry/rbac/rules-review'
import { nodeIdentity } from '../../identity/node-authorizer'
import { StatusError, statuses } from '../../registry/status'
import { SelfSubjectRulesReview } from '../../schema/authorization'
import { field } from './go-values'
import { created, readReview } from './review-request'

type Ctx = Context<{ Bindings: Env }>

/** kube's AlwaysAllow authorizer lists everything; its rule resolver is the only one in that mode. */
const ALLOW_ALL = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
}

/** POST /apis/authorization.k8s.io/v1/selfsubjectrulesreviews. */
export async function createSelfSubjectRulesReview(c: Ctx): Promise<Response> {
  const access = c.get('access')
  const r = await readReview(
    c,
    { group: 'authorization.k8s.io', kind: 'SelfSubjectRulesReview', schema: SelfSubjectRulesReview },
    '',
  )
  const namespace = field(r.object.spec, 'namespace')
  if (namespace === '') throw new StatusError(statuses.badRequest('no namespace on request'))
  let status: object = ALLOW_ALL
  if (!access.config.alwaysAllow) {
    const { rules, errors } = await access.authorizer.rulesFor(access.user, namespace)
    // kube's Node authorizer cannot list a node's rules: it says so, and the answer is incomplete.
    status = nodeIdentity(access.user).isNode
      ? selfSubjectRules(rules, ['node authorizer does not support user rule resolution', ...errors], true)
      : selfSubjectRules(rules, errors)
  }
  // A new object: the request's metadata (and its managedFields) are not part of the answer.
  return created(c, { ...r, meta: {} }, undefined, { spec: {}, status })
}
