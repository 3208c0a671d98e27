// The scheduling fields a pod update may change (ValidatePodUpdate, kube-apiserver 1.33 pkg/apis/core/validation):
// tolerations only added to, scheduling gates only removed, and while the pod is gated, a node selector and a
// required node affinity that only grow.
import { type FieldError, type FieldPath, fieldError } from '../../field-errors'
import { goStringMap, invalidGo, list, str } from './pod-validation-formats'
import { validateTolerations } from './pod-validation-scheduling'
import { semanticEqual } from './pod-spec-diff'
import type { NodeAffinity, NodeSelectorTerm, Toleration } from './pod-types'

/** validateOnlyAddedTolerations: every old toleration must survive, except for its tolerationSeconds. */
export function validateOnlyAddedTolerations(
  tolerations: readonly Toleration[],
  old: readonly Toleration[],
  path: FieldPath,
): FieldError[] {
  const same = (a: Toleration, b: Toleration) =>
    str(a.key) === str(b.key) &&
    str(a.operator) === str(b.operator) &&
    str(a.value) === str(b.value) &&
    str(a.effect) === str(b.effect)
  for (const o of old) {
    if (!tolerations.some((t) => same(o, t))) {
      return [
        fieldError.forbidden(path.toString(), 'existing toleration can not be modified except its tolerationSeconds'),
      ]
    }
  }
  return validateTolerations(tolerations, path)
}

/** validateOnlyDeletedSchedulingGates. */
export function validateOnlyDeletedSchedulingGates(
  gates: readonly { name: string }[],
  old: readonly { name: string }[],
  path: FieldPath,
): FieldError[] {
  const oldNames = new Set(old.map((g) => g.name))
  const added = new Map<string, number>()
  gates.forEach((g, i) => {
    if (!oldNames.has(g.name)) added.set(g.name, i)
  })
  return [...added].map(([name, i]) =>
    fieldError.forbidden(
      path.index(i).child('name').toString(),
      `only deletion is allowed, but found new scheduling gate '${name}'`,
    ),
  )
}

export function validateNodeSelectorMutation(
  path: FieldPath,
  now: Record<string, string> | undefined,
  old: Record<string, string> | undefined,
): FieldError[] {
  for (const [k, v] of Object.entries(old ?? {})) {
    if (now?.[k] !== v) {
      const shown = now === undefined ? 'map[string]string(nil)' : goStringMap(now)
      return [
        invalidGo(
          path.toString(),
          shown,
          'only additions to spec.nodeSelector are allowed (no mutations or deletions)',
        ),
      ]
    }
  }
  return []
}

export function validateNodeAffinityMutation(
  path: FieldPath,
  now: NodeAffinity | undefined,
  old: NodeAffinity | undefined,
): FieldError[] {
  const oldTerms = list(old?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms)
  if (!old?.requiredDuringSchedulingIgnoredDuringExecution) return []
  const newTerms = list(now?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms)
  const termsPath = path.child('requiredDuringSchedulingIgnoredDuringExecution').child('nodeSelectorTerms')
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length) {
    return [
      invalidGo(
        termsPath.toString(),
        JSON.stringify(newTerms),
        'no additions/deletions to non-empty NodeSelectorTerms list are allowed',
      ),
    ]
  }
  const errs: FieldError[] = []
  oldTerms.forEach((o, i) => {
    if (!onlyAdditions(newTerms[i]!, o)) {
      errs.push(
        invalidGo(
          termsPath.index(i).toString(),
          JSON.stringify(newTerms[i]),
          'only additions are allowed (no mutations or deletions)',
        ),
      )
    }
  })
  return errs
}

function onlyAdditions(now: NodeSelectorTerm, old: NodeSelectorTerm): boolean {
  const oldExprs = list(old.matchExpressions)
  const oldFields = list(old.matchFields)
  const newExprs = list(now.matchExpressions)
  const newFields = list(now.matchFields)
  if (oldExprs.length === 0 && oldFields.length === 0 && (newExprs.length > 0 || newFields.length > 0)) return false
  if (
    oldExprs.length > 0 &&
    (newExprs.length < oldExprs.length || !semanticEqual(newExprs.slice(0, oldExprs.length), oldExprs))
  )
    return false
  if (
    oldFields.length > 0 &&
    (newFields.length < oldFields.length || !semanticEqual(newFields.slice(0, oldFields.length), oldFields))
  )
    return false
  return true
}
