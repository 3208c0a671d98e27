// How kube's RBAC messages print Go values: %q of a []string, and the text of a utilerrors aggregate.
import { goQuote } from '../go-strings'

/** fmt's %q of a []string: `["a" "b"]`, `[]` when empty. */
export const quoteList = (items: readonly string[]): string => `[${items.map(goQuote).join(' ')}]`

/**
 * utilerrors.NewAggregate(errs).Error(): one error alone as itself, several as `[a, b]` without repeats (a list whose
 * errors all say the same thing prints as that one message, unbracketed).
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 0) return ''
  if (messages.length === 1) return messages[0]!
  const seen = [...new Set(messages)]
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`
}
