// Label selectors: kube's labels.Parse grammar, requirement validation with kube's exact error wording, and matching.
// This module owns the selector; the grammar, requirements and key/value checks live in the label-* modules beside it,
// and what callers used from here is still exported here so none of them had to change.
import { compareUtf8, goQuote } from './go-strings'
import {
  matchesRequirement,
  newLabelRequirement,
  requirementString,
  type LabelOperator,
  type LabelRequirement,
} from './label-requirement'
import { parseLabelRequirements } from './label-selector-parser'

export { labelKeyError, labelValueError } from './label-validation'
export { newLabelRequirement, type LabelOperator, type LabelRequirement } from './label-requirement'

export interface LabelSelector {
  /** Sorted by key, like kube's internalSelector. */
  requirements: LabelRequirement[]
  matches(labels: Record<string, string> | undefined): boolean
  /** True when the selector does not restrict anything (an empty string, or a selector from an empty set). */
  isEmpty(): boolean
  /** kube's String(): `a=b,c in (d,e),!f`. Parsing it gives the same requirements back. */
  toString(): string
}

type LabelSelectorResult = { ok: true; selector: LabelSelector } | { ok: false; message: string }

/** metav1.LabelSelector, as found in object specs (Deployment, PodDisruptionBudget, ...). */
export interface MetaV1LabelSelector {
  matchLabels?: Record<string, string> | null
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] | null }> | null
}

class RequirementsSelector implements LabelSelector {
  /** `nothing` is labels.Nothing(): what a nil metav1.LabelSelector means. */
  constructor(
    readonly requirements: LabelRequirement[],
    private readonly nothing = false,
  ) {}
  matches(labels: Record<string, string> | undefined): boolean {
    return !this.nothing && this.requirements.every((r) => matchesRequirement(r, labels))
  }
  isEmpty(): boolean {
    return !this.nothing && this.requirements.length === 0
  }
  toString(): string {
    return this.requirements.map(requirementString).join(',')
  }
}

// kube sorts with sort.Sort (insertion sort below 13 items, so stable in practice); a stable sort keeps that order.
const sortedByKey = (reqs: LabelRequirement[]) => reqs.sort((a, b) => compareUtf8(a.key, b.key))

/** A selector over already-validated requirements, sorted by key. */
export function labelSelectorFromRequirements(requirements: LabelRequirement[]): LabelSelector {
  return new RequirementsSelector(sortedByKey([...requirements]))
}

/** labels.Everything() */
const everythingLabelSelector = (): LabelSelector => new RequirementsSelector([])

/** labels.Nothing(): matches no object, yet is not empty. */
const nothingLabelSelector = (): LabelSelector => new RequirementsSelector([], true)

/** labels.SelectorFromSet: `k=v` for each entry, unvalidated (as for Service spec.selector); empty or absent = everything. */
export function labelSelectorFromMatchLabels(set: Record<string, string> | null | undefined): LabelSelector {
  const reqs = Object.entries(set ?? {}).map(([key, v]): LabelRequirement => ({ key, operator: '=', values: [v] }))
  return new RequirementsSelector(sortedByKey(reqs))
}

const metaV1Operators: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' }

/** metav1.LabelSelectorAsSelector: null/undefined selects nothing, `{}` selects everything; the first invalid term is reported. */
export function labelSelectorFromMetaV1(ls: MetaV1LabelSelector | null | undefined): LabelSelectorResult {
  if (ls === null || ls === undefined) return { ok: true, selector: nothingLabelSelector() }
  const reqs: LabelRequirement[] = []
  // Go walks matchLabels in random map order; sorting makes which error is reported deterministic.
  for (const key of Object.keys(ls.matchLabels ?? {}).sort(compareUtf8)) {
    const r = newLabelRequirement(key, '=', [ls.matchLabels![key]!])
    if (!r.ok) return r
    reqs.push(r.requirement)
  }
  for (const expr of ls.matchExpressions ?? []) {
    const op = Object.hasOwn(metaV1Operators, expr.operator) ? metaV1Operators[expr.operator]! : undefined
    if (op === undefined)
      return { ok: false, message: `${goQuote(expr.operator)} is not a valid label selector operator` }
    const r = newLabelRequirement(expr.key, op, expr.values ?? [])
    if (!r.ok) return r
    reqs.push(r.requirement)
  }
  return { ok: true, selector: new RequirementsSelector(sortedByKey(reqs)) }
}

/**
 * The requirement a storage index can answer (key = value or key in (...) or key exists), if any: prefer equality,
 * then in, then exists. `values` null means "key exists". The rest of the selector must still be applied.
 */
export function indexableRequirement(sel: LabelSelector): { key: string; values: string[] | null } | null {
  const reqs = sel.requirements
  const eq = reqs.find((r) => r.operator === '=' || r.operator === '==')
  if (eq) return { key: eq.key, values: [...eq.values] }
  const within = reqs.find((r) => r.operator === 'in')
  if (within) return { key: within.key, values: [...within.values] }
  const exists = reqs.find((r) => r.operator === 'exists')
  if (exists) return { key: exists.key, values: null }
  return null
}

/**
 * labels.Parse: the labelSelector query parameter. The empty string selects everything. On failure `message` is
 * kube's error text, which the apiserver returns verbatim as a 400 BadRequest.
 */
export function parseLabelSelector(s: string): LabelSelectorResult {
  const r = parseLabelRequirements(s)
  if (!r.ok) return r
  return { ok: true, selector: new RequirementsSelector(sortedByKey(r.requirements)) }
}
