// What RoleBindings and ClusterRoleBindings share (kube's pkg/apis/rbac/v1/defaults.go and
// pkg/apis/rbac/validation): roleRef and subject defaulting, their validation, and roleRef immutability.
import type { RoleRef, Subject } from '../../../schema/rbac'
import { fieldError, type FieldError, FieldPath } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { nameIsDNSSubdomain } from '../../validation/names'
import { validateRBACName } from './policy-rule-validation'

const GROUP = 'rbac.authorization.k8s.io'

interface Binding {
  subjects?: Subject[]
  roleRef: RoleRef
}

/** SetDefaults_*RoleBinding and SetDefaults_Subject: the RBAC group where it is empty (not for ServiceAccounts). */
export function defaultBinding(b: Binding) {
  // A missing roleRef is Go's zero struct, which defaulting fills like any other: only kind and name are then wrong.
  b.roleRef ??= { apiGroup: '', kind: '', name: '' }
  if (!b.roleRef.apiGroup) b.roleRef.apiGroup = GROUP
  for (const s of b.subjects ?? []) if (!s.apiGroup && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = GROUP
}

/** ValidateRoleBindingSubject: a name, a valid ServiceAccount (namespaced in ClusterRoleBindings), or a User/Group. */
function validateSubject(s: Subject, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const at = (child: string) => path.child(child).toString()
  if (!s.name) errs.push(fieldError.required(at('name')))
  switch (s.kind) {
    case 'ServiceAccount':
      if (s.name)
        for (const m of nameIsDNSSubdomain(s.name, false)) errs.push(fieldError.invalid(at('name'), s.name, m))
      if (s.apiGroup) errs.push(fieldError.notSupported(at('apiGroup'), s.apiGroup, ['']))
      if (!namespaced && !s.namespace) errs.push(fieldError.required(at('namespace')))
      break
    case 'User':
    case 'Group':
      if (s.apiGroup !== GROUP) errs.push(fieldError.notSupported(at('apiGroup'), s.apiGroup ?? '', [GROUP]))
      break
    default:
      errs.push(fieldError.notSupported(at('kind'), s.kind ?? '', ['ServiceAccount', 'User', 'Group']))
  }
  return errs
}

/**
 * ValidateRoleBinding / ValidateClusterRoleBinding without the metadata (the store checks that): the roleRef's
 * group, its kind (Role or ClusterRole in a RoleBinding, only ClusterRole in a ClusterRoleBinding), its name, and
 * every subject.
 */
export function validateBinding(b: Binding, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = []
  const ref = b.roleRef ?? { apiGroup: '', kind: '', name: '' }
  if (ref.apiGroup !== GROUP) errs.push(fieldError.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [GROUP]))
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole']
  if (!kinds.includes(ref.kind)) errs.push(fieldError.notSupported('roleRef.kind', ref.kind ?? '', kinds))
  if (!ref.name) errs.push(fieldError.required('roleRef.name'))
  else for (const m of validateRBACName(ref.name, false)) errs.push(fieldError.invalid('roleRef.name', ref.name, m))
  const subjects = new FieldPath('subjects')
  ;(b.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s, namespaced, subjects.index(i))))
  return errs
}

/** The roleRef as %#v prints the internal rbac.RoleRef. */
const goRoleRef = (r: RoleRef) =>
  `rbac.RoleRef{APIGroup:${goQuote(r.apiGroup ?? '')}, Kind:${goQuote(r.kind ?? '')}, Name:${goQuote(r.name ?? '')}}`

/** A binding's roleRef never changes: to bind another role, delete the binding and create it anew. */
export function validateRoleRefUnchanged(b: Binding, old: Binding): FieldError[] {
  const a = b.roleRef ?? {}
  const o = old.roleRef ?? {}
  if (
    (a.apiGroup ?? '') === (o.apiGroup ?? '') &&
    (a.kind ?? '') === (o.kind ?? '') &&
    (a.name ?? '') === (o.name ?? '')
  )
    return []
  return [
    {
      type: 'FieldValueInvalid',
      field: 'roleRef',
      message: `Invalid value: ${goRoleRef(b.roleRef ?? ({} as RoleRef))}: cannot change roleRef`,
    },
  ]
}
