// The IngressClass strategy (cluster-scoped): kube 1.33's ValidateIngressClass (the controller a domain-prefixed
// path of at most 250 characters, immutable; parameters referencing an object by kind and name, scoped to the
// cluster or a namespace), the Cluster scope defaulted, and the `kubectl get ingressclass` table.
import type { IngressClass } from '../../../schema/ingress'
import type { ObjectMeta } from '../../../schema/meta'
import { fieldError, type FieldError, type FieldPath, FieldPath as Path } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { isDNS1123Subdomain, nameIsDNSSubdomain, regexError, validateNamespaceName } from '../../validation/names'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { validateRBACName } from '../rbac/policy-rule-validation'
import { AGE_COLUMN, NAME_COLUMN } from '../config/data-keys'

type IngressClassObject = IngressClass & { metadata: ObjectMeta }
type Ref = { apiGroup?: string; kind?: string; name?: string }

const MAX_CONTROLLER = 250
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+"
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`)
const SCOPES = ['Cluster', 'Namespace']

/** validateIngressTypedLocalObjectReference: kind and name are path segment names (IsValidPathSegmentName). */
export function validateTypedReference(ref: Ref, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (ref.apiGroup !== undefined)
    for (const m of isDNS1123Subdomain(ref.apiGroup))
      errs.push(fieldError.invalid(path.child('apiGroup').toString(), ref.apiGroup, m))
  if (!ref.kind) errs.push(fieldError.required(path.child('kind').toString(), 'kind is required'))
  else
    for (const m of validateRBACName(ref.kind, false))
      errs.push(fieldError.invalid(path.child('kind').toString(), ref.kind, m))
  if (!ref.name) errs.push(fieldError.required(path.child('name').toString(), 'name is required'))
  else
    for (const m of validateRBACName(ref.name, false))
      errs.push(fieldError.invalid(path.child('name').toString(), ref.name, m))
  return errs
}

/** IsDomainPrefixedPath. */
function domainPrefixedPath(value: string, at: string): FieldError[] {
  if (!value) return [fieldError.required(at)]
  const slash = value.indexOf('/')
  if (slash <= 0 || slash === value.length - 1)
    return [fieldError.invalid(at, value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
  const host = value.slice(0, slash)
  const path = value.slice(slash + 1)
  const errs = isDNS1123Subdomain(host).map((m) => fieldError.invalid(at, host, m))
  if (!HTTP_PATH_RE.test(path)) errs.push(fieldError.invalid(at, path, regexError('Invalid path', HTTP_PATH_FMT)))
  return errs
}

function validateSpec(ic: IngressClassObject): FieldError[] {
  const spec = ic.spec ?? {}
  const p = new Path('spec')
  const controller = spec.controller ?? ''
  const errs: FieldError[] = []
  if (new TextEncoder().encode(controller).length > MAX_CONTROLLER)
    errs.push(fieldError.tooLong('spec.controller', MAX_CONTROLLER))
  errs.push(...domainPrefixedPath(controller, 'spec.controller'))
  const params = spec.parameters
  if (!params) return errs
  const at = p.child('parameters')
  errs.push(...validateTypedReference(params, at))
  if (params.scope === undefined) {
    errs.push(fieldError.required(at.child('scope').toString()))
    return errs
  }
  if (!SCOPES.includes(params.scope))
    errs.push(fieldError.notSupported(at.child('scope').toString(), params.scope, SCOPES))
  else if (params.scope === 'Namespace') {
    if (params.namespace === undefined)
      errs.push(fieldError.required(at.child('namespace').toString(), "`parameters.scope` is set to 'Namespace'"))
    else
      for (const m of validateNamespaceName(params.namespace, false))
        errs.push(fieldError.invalid(at.child('namespace').toString(), params.namespace, m))
  } else if (params.namespace !== undefined) {
    errs.push(fieldError.forbidden(at.child('namespace').toString(), "`parameters.scope` is set to 'Cluster'"))
  }
  return errs
}

export const ingressClassStrategy: Strategy<IngressClassObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(ic) {
    // SetDefaults_IngressClass: parameters are cluster-scoped unless said otherwise.
    if (ic.spec?.parameters && ic.spec.parameters.scope === undefined) ic.spec.parameters.scope = 'Cluster'
  },
  prepareForCreate: () => undefined,
  validate: validateSpec,
  prepareForUpdate: () => undefined,
  validateUpdate(ic, old) {
    const errs: FieldError[] = []
    if ((ic.spec?.controller ?? '') !== (old.spec?.controller ?? ''))
      errs.push(fieldError.invalid('spec.controller', ic.spec?.controller ?? '', FIELD_IMMUTABLE_ERROR_MSG))
    return [...errs, ...validateSpec(ic)]
  },
  selectableFields: (ic) => ({ 'metadata.name': ic.metadata.name ?? '' }),
  fieldSelectorNames: ['metadata.name'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      {
        name: 'Controller',
        type: 'string',
        format: '',
        description: 'Controller that is responsible for handling this class',
        priority: 0,
      },
      {
        name: 'Parameters',
        type: 'string',
        format: '',
        description: 'A reference to a resource with additional parameters',
        priority: 0,
      },
      AGE_COLUMN,
    ],
    cells(ic, now) {
      const p = ic.spec?.parameters
      const params = p ? `${p.kind}${p.apiGroup !== undefined ? `.${p.apiGroup}` : ''}/${p.name}` : '<none>'
      return [ic.metadata.name, ic.spec?.controller ?? '', params, age(ic.metadata.creationTimestamp, now)]
    },
  },
}
