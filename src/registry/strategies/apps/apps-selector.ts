// The metav1.LabelSelector of the apps kinds' specs (ReplicaSet, Deployment, DaemonSet, StatefulSet): kube's checks of
// spec.selector (required, valid, not empty), the matcher the template check and the controllers use, and the apps/v1
// rule that a selector never changes after create.
import type { LabelSelector } from '../pod/pod-types'
import { deepEqual } from '../../deep-equal'
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { labelSelectorFromMetaV1 } from '../../label-selector'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { goLabelSelector, validateLabelSelector } from '../pod/pod-validation-formats'

type Labels = Record<string, string> | undefined

/**
 * metav1.LabelSelectorAsSelector as a matcher: null selects nothing (a nil selector), `{}` everything; an invalid
 * selector matches nothing. Controllers and the template check share it.
 */
export function selectorMatcher(selector: LabelSelector | null | undefined): (labels: Labels) => boolean {
  const parsed = labelSelectorFromMetaV1(selector)
  if (!parsed.ok) return () => false
  return (labels) => parsed.selector.matches(labels)
}

/** Whether a selector selects nothing at all or everything: controllers act only on a non-empty valid one. */
export const selectsSomething = (selector: LabelSelector | null | undefined) =>
  !!selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length > 0

/**
 * The selector half of ValidateReplicaSetSpec / ValidateDeploymentSpec (and the DaemonSet and StatefulSet ones):
 * errors in kube's order, and what the template check then needs: a matcher, null when the selector is empty
 * (labels.Everything: nothing to check), or 'invalid' when it does not convert (kube then skips the template).
 * `emptyMessage` is the kind's wording (`empty selector is invalid for deployment`, which ReplicaSets share).
 */
export function validateSpecSelector(
  selector: LabelSelector | undefined,
  at: FieldPath,
  emptyMessage: string,
): { errors: FieldError[]; matches: ((labels: Labels) => boolean) | null | 'invalid' } {
  const errors: FieldError[] = []
  if (!selector) {
    errors.push(fieldError.required(at.toString()))
    // A nil selector is labels.Nothing(): not empty, matching no labels, so the template check fails too.
    return { errors, matches: () => false }
  }
  errors.push(...validateLabelSelector(selector, at))
  if (!selectsSomething(selector)) errors.push(invalidSelector(at, selector, emptyMessage))
  const parsed = labelSelectorFromMetaV1(selector)
  if (!parsed.ok) {
    errors.push(invalidSelector(at, selector, 'invalid label selector'))
    return { errors, matches: 'invalid' }
  }
  if (parsed.selector.isEmpty()) return { errors, matches: null }
  return { errors, matches: (labels) => parsed.selector.matches(labels) }
}

/** ValidateImmutableField(spec.selector): apps/v1 refuses any change of the selector after create. */
export function validateSelectorUnchanged(
  selector: LabelSelector | undefined,
  old: LabelSelector | undefined,
  at: FieldPath,
): FieldError[] {
  if (deepEqual(selector ?? null, old ?? null)) return []
  const shown = selector ? goLabelSelector(selector) : 'null'
  return [
    {
      type: 'FieldValueInvalid',
      field: at.toString(),
      message: `Invalid value: ${shown}: ${FIELD_IMMUTABLE_ERROR_MSG}`,
    },
  ]
}

/** metav1.FormatLabelSelector: the selector's String(), `<none>` when empty, `<error>` when it does not convert. */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  const parsed = labelSelectorFromMetaV1(selector)
  if (!parsed.ok) return '<error>'
  return parsed.selector.toString() || '<none>'
}

function invalidSelector(at: FieldPath, selector: LabelSelector, detail: string): FieldError {
  return {
    type: 'FieldValueInvalid',
    field: at.toString(),
    message: `Invalid value: ${goLabelSelector(selector)}: ${detail}`,
  }
}
