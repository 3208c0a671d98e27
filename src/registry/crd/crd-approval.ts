// API approval of CRDs in the groups the Kubernetes project owns (*.k8s.io, *.kubernetes.io): the state of the
// api-approved.kubernetes.io annotation (apihelpers.GetAPIApprovalState), which CRD validation requires, and the
// KubernetesAPIApprovalPolicyConformant condition kube's apiapproval controller sets from it.
import { goQuote } from '../go-strings'
import { setCondition } from './crd-conditions'
import type { Crd } from './json-schema'

export const APPROVAL_ANNOTATION = 'api-approved.kubernetes.io'
const APPROVAL_PR = 'https://github.com/kubernetes/enhancements/pull/1111'

export const isProtectedGroup = (g: string) =>
  g === 'k8s.io' || g.endsWith('.k8s.io') || g === 'kubernetes.io' || g.endsWith('.kubernetes.io')

type Approval = 'invalid' | 'approved' | 'bypassed' | 'missing'

/** The annotation's state and kube's reason for it. */
export function approvalOf(annotations: Record<string, string> | undefined): [Approval, string] {
  const value = annotations?.[APPROVAL_ANNOTATION] ?? ''
  if (value.length === 0)
    return ['missing', `protected groups must have approval annotation "${APPROVAL_ANNOTATION}", see ${APPROVAL_PR}`]
  if (value.startsWith('unapproved')) return ['bypassed', `not approved: ${goQuote(value)}`]
  // url.ParseRequestURI succeeds with a scheme and a host.
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#\s]+/.test(value)) return ['approved', `approved in ${value}`]
  return [
    'invalid',
    `protected groups must have approval annotation "${APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see ${APPROVAL_PR}`,
  ]
}

const CONDITIONS: Record<Approval, { status: 'True' | 'False'; reason: string }> = {
  invalid: { status: 'False', reason: 'InvalidAnnotation' },
  missing: { status: 'False', reason: 'MissingAnnotation' },
  approved: { status: 'True', reason: 'ApprovedAnnotation' },
  bypassed: { status: 'False', reason: 'UnapprovedAnnotation' },
}

/**
 * The apiapproval controller's pass over one CRD: its status with KubernetesAPIApprovalPolicyConformant for a
 * protected group (none for other groups, whose CRDs never carry it: the group is immutable), or null when nothing
 * changes.
 */
export function approvalCondition(crd: Crd, now: Date): Crd | null {
  if (!isProtectedGroup(crd.spec.group ?? '')) return null
  const [state, message] = approvalOf(crd.metadata.annotations)
  const want = CONDITIONS[state]
  const old = crd.status?.conditions?.find((c) => c.type === 'KubernetesAPIApprovalPolicyConformant')
  if (old && old.status === want.status && old.reason === want.reason && old.message === message) return null
  const next = structuredClone(crd)
  setCondition(next, { type: 'KubernetesAPIApprovalPolicyConformant', ...want, message }, now)
  return next
}
