// A request's label and field selectors, parsed once where the request arrives into plain data that travels to the
// Durable Objects (RPC arguments, watch URLs, socket attachments) and is turned back into matchers without parsing.
import {
  checkFieldSelector,
  fieldSelectorFromRequirements,
  parseFieldSelector,
  type FieldRequirement,
  type FieldSelector,
} from './field-selector'
import {
  labelSelectorFromRequirements,
  parseLabelSelector,
  type LabelRequirement,
  type LabelSelector,
} from './label-selector'
import { fail, ok, statuses, type Result } from './status'
import type { Strategy } from './strategy'
import type { WatchFilter } from './watch-events'

/** Parsed selectors as plain data; an absent or empty selector is left out. */
export interface Selectors {
  label?: LabelRequirement[]
  field?: FieldRequirement[]
}

/**
 * Parses the labelSelector and fieldSelector parameters as kube does (400 with kube's message on failure, including
 * a field the kind does not support): the only place selector text is parsed.
 */
export function parseSelectors(
  strategy: Pick<Strategy, 'fieldSelectorNames'>,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): Result<Selectors> {
  const out: Selectors = {}
  if (labelSelector) {
    const parsed = parseLabelSelector(labelSelector)
    if (!parsed.ok) return fail(statuses.badRequest(parsed.message))
    if (!parsed.selector.isEmpty()) out.label = parsed.selector.requirements
  }
  if (fieldSelector) {
    const parsed = parseFieldSelector(fieldSelector)
    if (!parsed.ok) return fail(statuses.badRequest(parsed.message))
    const unsupported = checkFieldSelector(parsed.selector, strategy.fieldSelectorNames)
    if (unsupported) return fail(statuses.badRequest(unsupported))
    if (!parsed.selector.isEmpty()) out.field = parsed.selector.requirements
  }
  return ok(out)
}

/** The matchers for parsed selectors (undefined where nothing is selected). */
export function selectorsFrom(s: Selectors | undefined): {
  labelSelector?: LabelSelector
  fieldSelector?: FieldSelector
} {
  return {
    labelSelector: s?.label ? labelSelectorFromRequirements(s.label) : undefined,
    fieldSelector: s?.field ? fieldSelectorFromRequirements(s.field) : undefined,
  }
}

/** A watch filter for a kind's strategy and parsed selectors. */
export function watchFilter(strategy: WatchFilter['strategy'], s: Selectors | undefined): WatchFilter {
  return { strategy, ...selectorsFrom(s) }
}
