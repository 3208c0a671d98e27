// Which rules apply to a user in a namespace (kube's DefaultRuleResolver, pkg/registry/rbac/validation/rule.go): the
// bindings visited in kube's order, their subjects matched, their roles resolved through a small store interface,
// each rule reported with the binding that granted it and each lookup failure as kube words it.
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
  RoleRef,
  Subject,
} from '../../schema/rbac'
import { goQuote } from '../go-strings'
import type { UserInfo } from '../user-info'

/** The RBAC objects authorization reads; implemented over whatever holds them (listers in kube, our stores here). */
export interface RbacSource {
  /** Every ClusterRoleBinding, in a stable order (kube visits its lister's order). */
  clusterRoleBindings(): readonly ClusterRoleBinding[]
  roleBindings(namespace: string): readonly RoleBinding[]
  clusterRole(name: string): ClusterRole | null
  role(namespace: string, name: string): Role | null
}

/**
 * How a missing role is worded. The authorizer reads informer listers, whose NotFound names the singular resource
 * (`clusterrole.rbac.authorization.k8s.io "x" not found`); the escalation checks in the RBAC storage read the
 * registry, whose NotFound names the plural (`clusterroles.rbac.authorization.k8s.io "x" not found`).
 */
export type NotFoundWording = 'lister' | 'registry'

const GROUP = 'rbac.authorization.k8s.io'

/** The binding and subject a rule came from; printed only when it allows something. */
export interface RuleSource {
  kind: 'ClusterRoleBinding' | 'RoleBinding'
  binding: ClusterRoleBinding | RoleBinding
  subject: Subject
}

/** kube's describeSubject: a ServiceAccount as `name/namespace`, the binding's namespace when the subject has none. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`
  return `${s.kind} ${goQuote(s.name)}`
}

/** `ClusterRoleBinding "crb" of ClusterRole "cr" to User "alice"`, `RoleBinding "rb/ns" of ...`. */
export function describeSource(src: RuleSource): string {
  const ref = src.binding.roleRef
  const meta = src.binding.metadata
  // kube prints the binding's own namespace here (equal to the request's, since only its RoleBindings are visited).
  const namespace = src.kind === 'RoleBinding' ? (meta?.namespace ?? '') : ''
  const name = src.kind === 'RoleBinding' ? `${meta?.name ?? ''}/${namespace}` : (meta?.name ?? '')
  return `${src.kind} ${goQuote(name)} of ${ref.kind} ${goQuote(ref.name)} to ${describeSubject(src.subject, namespace)}`
}

const SA_PREFIX = 'system:serviceaccount:'

function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name
    case 'Group':
      return user.groups.includes(subject.name)
    case 'ServiceAccount': {
      // A RoleBinding's subject without a namespace means the binding's own; a ClusterRoleBinding's matches nobody.
      const ns = subject.namespace || namespace
      return ns !== '' && user.name === `${SA_PREFIX}${ns}:${subject.name}`
    }
    default:
      return false
  }
}

/** The first subject of a binding that is the user, if any (the one named in the allow reason). */
function subjectFor(user: UserInfo, subjects: readonly Subject[] | undefined, namespace: string): Subject | null {
  for (const s of subjects ?? []) if (appliesToUser(user, s, namespace)) return s
  return null
}

type RoleRules = { ok: true; rules: readonly PolicyRule[] } | { ok: false; error: string; missing: boolean }

/** GetRoleReferenceRules: a Role of the binding's namespace or a ClusterRole; kube's error when it cannot. */
export function roleRefRules(
  ref: RoleRef,
  bindingNamespace: string,
  source: RbacSource,
  wording: NotFoundWording = 'lister',
): RoleRules {
  const notFound = (singular: string) => {
    const resource = wording === 'lister' ? singular : `${singular}s`
    return { ok: false as const, missing: true, error: `${resource}.${GROUP} ${goQuote(ref.name)} not found` }
  }
  switch (ref.kind) {
    case 'Role': {
      const role = source.role(bindingNamespace, ref.name)
      return role ? { ok: true, rules: role.rules ?? [] } : notFound('role')
    }
    case 'ClusterRole': {
      const role = source.clusterRole(ref.name)
      return role ? { ok: true, rules: role.rules ?? [] } : notFound('clusterrole')
    }
    default:
      return { ok: false, missing: false, error: `unsupported role reference kind: ${goQuote(ref.kind)}` }
  }
}

/** Called with each applicable rule and each resolution error, in visit order; returning false stops the visit. */
type RuleVisitor = (source: RuleSource | null, rule: PolicyRule | null, error: string | null) => boolean

/**
 * VisitRulesFor: every ClusterRoleBinding first, then (only for a namespaced request) the RoleBindings of the
 * namespace. A binding whose role cannot be resolved reports its error and the visit goes on.
 */
export function visitRulesFor(
  user: UserInfo,
  namespace: string,
  source: RbacSource,
  visitor: RuleVisitor,
  wording: NotFoundWording = 'lister',
): void {
  const visitBinding = (kind: RuleSource['kind'], binding: ClusterRoleBinding | RoleBinding, ns: string): boolean => {
    const subject = subjectFor(user, binding.subjects, ns)
    if (!subject) return true
    const resolved = roleRefRules(binding.roleRef, ns, source, wording)
    if (!resolved.ok) return visitor(null, null, resolved.error)
    const src: RuleSource = { kind, binding, subject }
    for (const rule of resolved.rules) if (!visitor(src, rule, null)) return false
    return true
  }
  for (const b of source.clusterRoleBindings()) if (!visitBinding('ClusterRoleBinding', b, '')) return
  if (namespace === '') return
  for (const b of source.roleBindings(namespace)) if (!visitBinding('RoleBinding', b, namespace)) return
}

/** RulesFor: every rule that applies, in visit order (duplicates kept), and every resolution error. */
export function rulesFor(
  user: UserInfo,
  namespace: string,
  source: RbacSource,
  wording: NotFoundWording = 'lister',
): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = []
  const errors: string[] = []
  visitRulesFor(
    user,
    namespace,
    source,
    (_, rule, error) => {
      if (rule) rules.push(rule)
      if (error) errors.push(error)
      return true
    },
    wording,
  )
  return { rules, errors }
}
