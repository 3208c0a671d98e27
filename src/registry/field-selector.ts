// Field selectors: kube's fields.ParseSelector grammar (with its backslash escapes), matching, and the supported-field check.
import { compareUtf8 } from './go-strings'

/** One ANDed term. `=` and `==` mean the same; the spelling is kept only for the caller's benefit. */
export interface FieldRequirement {
  field: string
  operator: '=' | '==' | '!='
  /** Unescaped. */
  value: string
}

export interface FieldSelector {
  /** In kube's order: terms sorted as written, before unescaping. */
  requirements: FieldRequirement[]
  /** Fields the object lacks compare as the empty string, so `f!=x` matches them and `f=` matches them too. */
  matches(fields: Record<string, string>): boolean
  isEmpty(): boolean
  /** exact value required for a field by an = / == requirement, if any */
  exactValue(field: string): string | undefined
  /** kube's String(): `a=b,c!=d`, values re-escaped, `==` printed as `=`. */
  toString(): string
}

type FieldSelectorResult = { ok: true; selector: FieldSelector } | { ok: false; message: string }

/** fields.EscapeValue: lets any literal value be written into a selector. */
export const escapeFieldSelectorValue = (value: string) => value.replace(/[\\,=]/g, (c) => `\\${c}`)

/** Splits on commas that are not backslash-escaped, keeping the escapes for unescapeValue. */
function splitTerms(s: string): string[] {
  if (s === '') return []
  const terms: string[] = []
  let start = 0
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++
    else if (s[i] === ',') {
      terms.push(s.slice(start, i))
      start = i + 1
    }
  }
  terms.push(s.slice(start))
  return terms
}

const operators = ['!=', '==', '='] as const

/** The first operator occurrence splits the term: fields cannot be escaped, and `==` wins over `=` at the same spot. */
function splitTerm(term: string): { field: string; operator: FieldRequirement['operator']; raw: string } | null {
  for (let i = 0; i < term.length; i++) {
    for (const op of operators) {
      if (term.startsWith(op, i)) return { field: term.slice(0, i), operator: op, raw: term.slice(i + op.length) }
    }
  }
  return null
}

function unescapeValue(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  let value = ''
  let escaped = false
  for (const c of raw) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=')
        return { ok: false, message: `invalid field selector: invalid escape sequence: \\${c}` }
      value += c
      escaped = false
    } else if (c === '\\') {
      escaped = true
    } else if (c === ',' || c === '=') {
      // kube prints the rune with %v, which is its number: `a=b=c` fails with "... in value: 61".
      return { ok: false, message: `invalid field selector: unescaped character in value: ${c.codePointAt(0)}` }
    } else {
      value += c
    }
  }
  if (escaped) return { ok: false, message: 'invalid field selector: invalid escape sequence: \\' }
  return { ok: true, value }
}

class TermsSelector implements FieldSelector {
  constructor(readonly requirements: FieldRequirement[]) {}
  matches(fields: Record<string, string>): boolean {
    return this.requirements.every((r) => {
      const actual = Object.hasOwn(fields, r.field) ? fields[r.field]! : ''
      return r.operator === '!=' ? actual !== r.value : actual === r.value
    })
  }
  isEmpty(): boolean {
    return this.requirements.length === 0
  }
  exactValue(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator !== '!=')?.value
  }
  toString(): string {
    return this.requirements
      .map((r) => `${r.field}${r.operator === '!=' ? '!=' : '='}${escapeFieldSelectorValue(r.value)}`)
      .join(',')
  }
}

/**
 * fields.ParseSelector: the fieldSelector query parameter. Nothing is trimmed (`a = b` is field "a " and value " b"),
 * empty terms are skipped, and on failure `message` is kube's error text (returned as a 400 BadRequest).
 */
export function parseFieldSelector(s: string): FieldSelectorResult {
  // kube sorts the raw terms first, so with several bad terms the one reported is the first in sorted order.
  const terms = splitTerms(s).sort(compareUtf8)
  const requirements: FieldRequirement[] = []
  for (const term of terms) {
    if (term === '') continue
    const split = splitTerm(term)
    if (split === null) return { ok: false, message: `invalid selector: '${s}'; can't understand '${term}'` }
    const value = unescapeValue(split.raw)
    if (!value.ok) return value
    // Transform drops a term whose field and value are both empty, so `=` alone selects everything.
    if (split.field === '' && value.value === '') continue
    requirements.push({ field: split.field, operator: split.operator, value: value.value })
  }
  return { ok: true, selector: new TermsSelector(requirements) }
}

/** A selector over the given requirements, in the given order. */
export const fieldSelectorFromRequirements = (requirements: FieldRequirement[]): FieldSelector =>
  new TermsSelector([...requirements])

/** Checks every field is in the allowed set; returns kube's message `field label not supported: <f>` for the first that is not. */
export function checkFieldSelector(sel: FieldSelector, allowed: readonly string[]): string | null {
  const bad = sel.requirements.find((r) => !allowed.includes(r.field))
  return bad === undefined ? null : `field label not supported: ${bad.field}`
}
