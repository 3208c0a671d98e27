// The ResourceQuota strategy: kube's ValidateResourceQuota / ValidateResourceQuotaUpdate / ValidateResourceQuotaStatusUpdate
// (quota resource names, integer counts, scopes and scope selectors, immutable scopes), status reset on create and
// kept on spec writes, and the `kubectl get quota` table (NAME AGE REQUEST LIMIT, `pods: 1/10, requests.cpu: 100m/1`).
import type { ObjectMeta } from '../../../schema/meta'
import type { ResourceQuota, ScopedResourceSelectorRequirement } from '../../../schema/resource-quota'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { compareUtf8, goQuote } from '../../go-strings'
import { age } from '../../human-duration'
import {
  isScopeValidForResource,
  isStandardQuotaResourceName,
  isStandardResourceQuotaScope,
  validateQuotaResourceName,
} from '../../quota/quota-names'
import type { Strategy } from '../../strategy'
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import { nameIsDNSSubdomain } from '../../validation/names'
import { invalidGo } from '../pod/pod-validation-formats'
import { quantityString, validateResourceQuantityValue } from '../pod/pod-validation-quantities'

type RQ = ResourceQuota & { metadata: ObjectMeta }
type Spec = NonNullable<ResourceQuota['spec']>
type List = Record<string, string | number> | undefined

const sorted = (m: List) => Object.keys(m ?? {}).sort(compareUtf8)

/** Go's %#v of the []core.ResourceQuotaScope field.Invalid is given. */
const scopesGo = (scopes: string[] | undefined) =>
  scopes === undefined
    ? '[]core.ResourceQuotaScope(nil)'
    : `[]core.ResourceQuotaScope{${scopes.map(goQuote).join(', ')}}`

/** Go's %#v of the *core.ScopeSelector (field.Invalid dereferences pointers). */
function selectorGo(sel: Spec['scopeSelector']): string {
  const req = (r: ScopedResourceSelectorRequirement) =>
    `core.ScopedResourceSelectorRequirement{ScopeName:${goQuote(r.scopeName ?? '')}, Operator:${goQuote(r.operator ?? '')}, Values:${
      r.values === undefined ? '[]string(nil)' : `[]string{${r.values.map(goQuote).join(', ')}}`
    }}`
  const exprs = sel?.matchExpressions
  const list =
    exprs === undefined
      ? '[]core.ScopedResourceSelectorRequirement(nil)'
      : `[]core.ScopedResourceSelectorRequirement{${exprs.map(req).join(', ')}}`
  return `core.ScopeSelector{MatchExpressions:${list}}`
}

function validateList(list: List, path: FieldPath): FieldError[] {
  return sorted(list).flatMap((k) => [
    ...validateQuotaResourceName(k, path.key(k)),
    ...validateResourceQuantityValue(k, list![k]!, path.key(k)),
  ])
}

const CONFLICTS = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
]

/** validateResourceQuotaScopes. */
function validateScopes(spec: Spec, fld: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const scopes = spec.scopes ?? []
  if (scopes.length === 0) return errs
  const at = fld.child('scopes').toString()
  const hard = sorted(spec.hard)
  for (const scope of scopes) {
    if (!isStandardResourceQuotaScope(scope)) errs.push(invalidGo(at, scopesGo(spec.scopes), 'unsupported scope'))
    for (const k of hard)
      if (isStandardQuotaResourceName(k) && !isScopeValidForResource(scope, k))
        errs.push(invalidGo(at, scopesGo(spec.scopes), 'unsupported scope applied to resource'))
  }
  for (const pair of CONFLICTS)
    if (pair.every((s) => scopes.includes(s))) errs.push(invalidGo(at, scopesGo(spec.scopes), 'conflicting scopes'))
  return errs
}

const EXISTS_ONLY = new Set([
  'BestEffort',
  'NotBestEffort',
  'Terminating',
  'NotTerminating',
  'CrossNamespacePodAffinity',
])

/** validateScopedResourceSelectorRequirement. */
function validateScopeSelector(spec: Spec, fld: FieldPath): FieldError[] {
  if (!spec.scopeSelector) return []
  const errs: FieldError[] = []
  const path = fld.child('scopeSelector').child('matchExpressions')
  const hard = sorted(spec.hard)
  const seen = new Set<string>()
  for (const req of spec.scopeSelector.matchExpressions ?? []) {
    const scope = req.scopeName ?? ''
    if (!isStandardResourceQuotaScope(scope))
      errs.push(fieldError.invalid(path.child('scopeName').toString(), scope, 'unsupported scope'))
    for (const k of hard)
      if (isStandardQuotaResourceName(k) && !isScopeValidForResource(scope, k))
        errs.push(invalidGo(path.toString(), selectorGo(spec.scopeSelector), 'unsupported scope applied to resource'))
    if (EXISTS_ONLY.has(scope) && req.operator !== 'Exists')
      errs.push(
        fieldError.invalid(
          path.child('operator').toString(),
          req.operator ?? '',
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      )
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (!req.values?.length)
          errs.push(
            fieldError.required(
              path.child('values').toString(),
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          )
        break
      case 'Exists':
      case 'DoesNotExist':
        if (req.values?.length)
          errs.push(
            fieldError.invalid(
              path.child('values').toString(),
              req.values,
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          )
        break
      default:
        errs.push(
          fieldError.invalid(path.child('operator').toString(), req.operator ?? '', 'not a valid selector operator'),
        )
    }
    seen.add(scope)
  }
  for (const pair of CONFLICTS)
    if (pair.every((s) => seen.has(s)))
      errs.push(invalidGo(path.toString(), scopesGo(spec.scopes), 'conflicting scopes'))
  return errs
}

/** ValidateResourceQuotaSpec. */
function validateSpec(rq: RQ): FieldError[] {
  const spec = rq.spec ?? {}
  const fld = new FieldPath('spec')
  return [
    ...validateList(spec.hard, fld.child('hard')),
    ...validateScopes(spec, fld),
    ...validateScopeSelector(spec, fld),
  ]
}

const validateStatus = (rq: RQ): FieldError[] => [
  ...validateList(rq.status?.hard, new FieldPath('status').child('hard')),
  ...validateList(rq.status?.used, new FieldPath('status').child('used')),
]

/** ValidateResourceQuotaUpdate's scope rule: the set of scopes may not change. */
function validateScopesUnchanged(rq: RQ, old: RQ): FieldError[] {
  const a = new Set(rq.spec?.scopes ?? [])
  const b = new Set(old.spec?.scopes ?? [])
  if (a.size === b.size && [...a].every((s) => b.has(s))) return []
  return [invalidGo('spec.scopes', scopesGo(rq.spec?.scopes), 'field is immutable')]
}

/** The REQUEST and LIMIT cells: `<resource>: <used>/<hard>` for each hard resource, limits.* in the second. */
function usageCells(rq: RQ): [string, string] {
  const hard = rq.status?.hard ?? {}
  const used = rq.status?.used ?? {}
  const request: string[] = []
  const limit: string[] = []
  for (const k of sorted(hard)) {
    const pieces = k.split('.')
    const cell = `${k}: ${used[k] !== undefined ? quantityString(used[k]) : '0'}/${quantityString(hard[k]!)}`
    ;(pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell)
  }
  return [request.join(', '), limit.join(', ')]
}

export const resourceQuotaStrategy: Strategy<RQ> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: (rq) => {
    // Spec and status are struct values upstream: always written.
    rq.spec ??= {}
    rq.status ??= {}
  },
  prepareForCreate: (rq) => {
    rq.status = {}
  },
  validate: (rq) => [...validateSpec(rq), ...validateStatus(rq)],
  prepareForUpdate: (rq, old) => {
    rq.status = old.status ?? {}
  },
  validateUpdate: (rq, old) => [...validateSpec(rq), ...validateScopesUnchanged(rq, old)],
  validateStatusUpdate: (rq) => validateStatus(rq),
  selectableFields: (rq) => ({
    'metadata.name': rq.metadata.name ?? '',
    'metadata.namespace': rq.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
      { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
      {
        name: 'Request',
        type: 'string',
        format: '',
        description: 'Request represents a minimum amount of cpu/memory that a container may consume.',
        priority: 0,
      },
      {
        name: 'Limit',
        type: 'string',
        format: '',
        description:
          'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
        priority: 0,
      },
    ],
    cells: (rq, now) => [rq.metadata.name ?? '', age(rq.metadata.creationTimestamp, now), ...usageCells(rq)],
  },
}
