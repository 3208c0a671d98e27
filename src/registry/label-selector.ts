// Label selectors: kube's labels.Parse grammar, requirement validation with kube's exact error wording, and matching.
import { compareUtf8, goQuote } from './go-strings'
import { byteLength, maxLenError } from './validation/names'

/** selection.Operator spellings, as kube prints them (`!` is DoesNotExist, `gt`/`lt` are the numeric comparisons). */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt'

/** One ANDed term. `values` is sorted and de-duplicated when it came from a selector string. */
export interface LabelRequirement {
  key: string
  operator: LabelOperator
  values: string[]
}

export interface LabelSelector {
  /** Sorted by key, like kube's internalSelector. */
  requirements: LabelRequirement[]
  matches(labels: Record<string, string> | undefined): boolean
  /** True when the selector does not restrict anything (an empty string, or a selector from an empty set). */
  isEmpty(): boolean
  /** kube's String(): `a=b,c in (d,e),!f`. Parsing it gives the same requirements back. */
  toString(): string
}

export type LabelSelectorResult = { ok: true; selector: LabelSelector } | { ok: false; message: string }

/** metav1.LabelSelector, as found in object specs (Deployment, PodDisruptionBudget, ...). */
export interface MetaV1LabelSelector {
  matchLabels?: Record<string, string> | null
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] | null }> | null
}

// ---------------------------------------------------------------------------------------------------------------
// Label-selector message helpers

/** Go's %#v of a []string; every empty slice that can reach NewRequirement is a nil one. */
const goStringSlice = (values: readonly string[]) =>
  values.length === 0 ? '[]string(nil)' : `[]string{${values.map(goQuote).join(', ')}}`

/** field.Invalid(path, value, detail).Error() */
const invalid = (path: string, value: string, detail: string) => `${path}: Invalid value: ${value}: ${detail}`

/** utilerrors.NewAggregate(...).Error(): one message bare, several de-duplicated inside brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)]
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`
}

// ---------------------------------------------------------------------------------------------------------------
// Key and value validation (apimachinery util/validation, in the wording of the 1.30 servers we identify as; later
// releases moved these to api/validate/content and say "bytes" and "a valid label key" instead)

const nameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const nameRe = new RegExp(`^${nameFmt}$`)
const nameMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const valueFmt = `(${nameFmt})?`
const valueRe = new RegExp(`^${valueFmt}$`)
const valueMsg = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`
const subdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'
const subdomainRe = new RegExp(`^${subdomainFmt}$`)
const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

/** validation.RegexError; note kube's doubled space after each example's comma. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`
}


/** validation.IsQualifiedName: an optional DNS-subdomain prefix and '/', then a name of at most 63. */
function labelKeyErrors(key: string): string[] {
  const parts = key.split('/')
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError(nameMsg, nameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]
  }
  const errs: string[] = []
  const name = parts.length === 2 ? parts[1]! : parts[0]!
  if (parts.length === 2) {
    const prefix = parts[0]!
    if (prefix === '') errs.push('prefix part must be non-empty')
    else {
      if (byteLength(prefix) > 253) errs.push(`prefix part ${maxLenError(253)}`)
      if (!subdomainRe.test(prefix)) errs.push(`prefix part ${regexError(subdomainMsg, subdomainFmt, 'example.com')}`)
    }
  }
  if (name === '') errs.push('name part must be non-empty')
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`)
  if (!nameRe.test(name)) errs.push(`name part ${regexError(nameMsg, nameFmt, 'MyName', 'my.name', '123-abc')}`)
  return errs
}

/** validation.IsValidLabelValue */
function labelValueErrors(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(maxLenError(63))
  if (!valueRe.test(value)) errs.push(regexError(valueMsg, valueFmt, 'MyValue', 'my_value', '12345'))
  return errs
}

/** Whether `key` is a valid label key; for callers validating object labels with their own field paths. */
export function labelKeyError(key: string): string | null {
  const errs = labelKeyErrors(key)
  return errs.length ? errs.join('; ') : null
}

/** Whether `value` is a valid label value; null when it is. */
export function labelValueError(value: string): string | null {
  const errs = labelValueErrors(value)
  return errs.length ? errs.join('; ') : null
}

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, within int64. */
function parseInt64(s: string): bigint | null {
  if (!/^[+-]?[0-9]+$/.test(s)) return null
  const n = BigInt(s.startsWith('+') ? s.slice(1) : s)
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : null
}

/**
 * labels.NewRequirement: validates a requirement and returns kube's aggregated message on failure.
 * Paths are rendered as kube does with no base path: `key`, `values`, `values[0][app]`.
 */
export function newLabelRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[],
): { ok: true; requirement: LabelRequirement } | { ok: false; message: string } {
  const errs: string[] = []
  const keyErr = labelKeyError(key)
  if (keyErr) errs.push(invalid('key', goQuote(key), keyErr))
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(invalid('values', goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"))
      break
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(invalid('values', goStringSlice(values), 'exact-match compatibility requires one single value'))
      break
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(invalid('values', goStringSlice(values), 'values set must be empty for exists and does not exist'))
      break
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(invalid('values', goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"))
      values.forEach((v, i) => {
        if (parseInt64(v) === null) errs.push(invalid(`values[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"))
      })
      break
  }
  values.forEach((v, i) => {
    const valueErr = labelValueError(v)
    if (valueErr) errs.push(invalid(`values[${i}][${key}]`, goQuote(v), valueErr))
  })
  if (errs.length) return { ok: false, message: aggregate(errs) }
  return { ok: true, requirement: { key, operator, values: [...values] } }
}

// ---------------------------------------------------------------------------------------------------------------
// Matching and printing

function matchesRequirement(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  // Own properties only: `constructor` and `__proto__` are valid label keys.
  const has = labels !== undefined && Object.hasOwn(labels, r.key)
  const value = has ? labels[r.key]! : ''
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return has && r.values.includes(value)
    case '!=':
    case 'notin':
      return !has || !r.values.includes(value)
    case 'exists':
      return has
    case '!':
      return !has
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false
      const actual = parseInt64(value)
      const bound = parseInt64(r.values[0]!)
      if (actual === null || bound === null) return false
      return r.operator === 'gt' ? actual > bound : actual < bound
    }
  }
}

const printedOperator: Record<LabelOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  exists: '',
  '!': '',
  gt: '>',
  lt: '<',
}

function requirementString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key
  if (r.operator === '!') return `!${r.key}`
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort(compareUtf8).join(',')
  const body = r.operator === 'in' || r.operator === 'notin' ? `(${values})` : values
  return `${r.key}${printedOperator[r.operator]}${body}`
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
export const everythingLabelSelector = (): LabelSelector => new RequirementsSelector([])

/** labels.Nothing(): matches no object, yet is not empty. */
export const nothingLabelSelector = (): LabelSelector => new RequirementsSelector([], true)

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
    if (op === undefined) return { ok: false, message: `${goQuote(expr.operator)} is not a valid label selector operator` }
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

// ---------------------------------------------------------------------------------------------------------------
// Lexer and parser (the labelSelector query parameter)

type TokenKind = 'end' | 'word' | 'in' | 'notin' | '!' | '=' | '==' | '!=' | '>' | '<' | '(' | ')' | ','
interface Token {
  kind: TokenKind
  text: string
}

const symbols: Record<string, TokenKind> = {
  '!': '!',
  '!=': '!=',
  '=': '=',
  '==': '==',
  '>': '>',
  '<': '<',
  '(': '(',
  ')': ')',
  ',': ',',
}
const isSymbolChar = (c: string) => c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<'
// Only these four: kube does not treat \v or \f as whitespace.
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n'

function tokenize(s: string): Token[] {
  let pos = 0
  // kube's lexer works on bytes and uses 0 as its end marker, so a NUL byte ends the current token, and ends the
  // whole selector when a token would start there.
  const read = () => (pos < s.length ? s[pos++]! : '\0')
  const tokens: Token[] = []
  for (;;) {
    let c = read()
    while (isSpace(c)) c = read()
    if (c === '\0') {
      tokens.push({ kind: 'end', text: '' })
      return tokens
    }
    if (isSymbolChar(c)) {
      // Longest run of symbol characters that is still an operator: `!=` and `==`, but `=!` is `=` then `!`.
      let text = c
      for (;;) {
        const n = read()
        if (n === '\0') break
        if (!isSymbolChar(n) || symbols[text + n] === undefined) {
          pos--
          break
        }
        text += n
      }
      tokens.push({ kind: symbols[text]!, text })
      continue
    }
    let text = c
    for (;;) {
      const n = read()
      if (n === '\0') break
      if (isSymbolChar(n) || isSpace(n)) {
        pos--
        break
      }
      text += n
    }
    tokens.push({ kind: text === 'in' ? 'in' : text === 'notin' ? 'notin' : 'word', text })
  }
}

class SyntaxFault {
  constructor(readonly message: string) {}
}

class Parser {
  private pos = 0
  constructor(private readonly tokens: Token[]) {}

  // `in` and `notin` are keywords only where an operator is expected: `in in (in)` is a valid selector.
  private peek(): Token {
    return asWord(this.tokens[this.pos] ?? endToken)
  }
  private next(): Token {
    return asWord(this.tokens[this.pos++] ?? endToken)
  }
  private nextOperator(): Token {
    return this.tokens[this.pos++] ?? endToken
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = []
    for (;;) {
      const t = this.peek()
      if (t.kind === 'end') return reqs
      if (t.kind !== 'word' && t.kind !== '!') throw new SyntaxFault(`found '${t.text}', expected: !, identifier, or 'end of string'`)
      try {
        reqs.push(this.requirement())
      } catch (e) {
        if (e instanceof SyntaxFault) throw new SyntaxFault(`unable to parse requirement: ${e.message}`)
        throw e
      }
      const after = this.next()
      if (after.kind === 'end') return reqs
      if (after.kind !== ',') throw new SyntaxFault(`found '${after.text}', expected: ',' or 'end of string'`)
      const t2 = this.peek()
      if (t2.kind !== 'word' && t2.kind !== '!') throw new SyntaxFault(`found '${t2.text}', expected: identifier after ','`)
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next()
    const negated = t.kind === '!'
    if (negated) t = this.next()
    if (t.kind !== 'word') throw new SyntaxFault(`found '${t.text}', expected: identifier`)
    const key = t.text
    // The parser validates the key with a nil field path, which Go prints as "<nil>".
    const keyErr = labelKeyError(key)
    if (keyErr) throw new SyntaxFault(invalid('<nil>', goQuote(key), keyErr))
    const la = this.peek().kind
    // `!key` is complete whatever follows; anything after it is reported by the caller as a missing ','.
    if (negated || la === 'end' || la === ',') return this.build(key, negated ? '!' : 'exists', [])

    const op = this.nextOperator()
    const operator = operatorOf[op.kind]
    if (operator === undefined) throw new SyntaxFault(`found '${op.text}', expected: in, notin, =, ==, !=, gt, lt`)
    const values = operator === 'in' || operator === 'notin' ? this.valueSet() : this.singleValue()
    // sets.String.List(): sorted and de-duplicated before validation, so error indexes refer to sorted order.
    return this.build(key, operator, [...new Set(values)].sort(compareUtf8))
  }

  private build(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
    const r = newLabelRequirement(key, operator, values)
    if (!r.ok) throw new SyntaxFault(r.message)
    return r.requirement
  }

  private valueSet(): string[] {
    const open = this.next()
    if (open.kind !== '(') throw new SyntaxFault(`found '${open.text}' expected: '('`)
    const first = this.peek()
    if (first.kind === ')') {
      this.next()
      return ['']
    }
    if (first.kind !== 'word' && first.kind !== ',') throw new SyntaxFault(`found '${first.text}', expected: ',', ')' or identifier`)
    // Empty members are allowed anywhere: `(,a)`, `(a,,b)` and `(a,)` all contain "".
    const values: string[] = []
    for (;;) {
      const t = this.next()
      if (t.kind === 'word') {
        values.push(t.text)
        const la = this.peek()
        if (la.kind === ')') break
        if (la.kind !== ',') throw new SyntaxFault(`found '${la.text}', expected: ',' or ')'`)
      } else if (t.kind === ',') {
        if (values.length === 0) values.push('')
        const la = this.peek().kind
        if (la === ')') {
          values.push('')
          break
        }
        if (la === ',') values.push('')
      } else {
        throw new SyntaxFault(`found '${t.text}', expected: ',', or identifier`)
      }
    }
    this.next() // the ')' the loop stopped in front of
    return values
  }

  private singleValue(): string[] {
    const la = this.peek().kind
    if (la === 'end' || la === ',') return ['']
    const t = this.next()
    if (t.kind !== 'word') throw new SyntaxFault(`found '${t.text}', expected: identifier`)
    return [t.text]
  }
}

const endToken: Token = { kind: 'end', text: '' }
const asWord = (t: Token): Token => (t.kind === 'in' || t.kind === 'notin' ? { kind: 'word', text: t.text } : t)

const operatorOf: Partial<Record<TokenKind, LabelOperator>> = {
  in: 'in',
  notin: 'notin',
  '=': '=',
  '==': '==',
  '!=': '!=',
  '>': 'gt',
  '<': 'lt',
}

/**
 * labels.Parse: the labelSelector query parameter. The empty string selects everything. On failure `message` is
 * kube's error text, which the apiserver returns verbatim as a 400 BadRequest.
 */
export function parseLabelSelector(s: string): LabelSelectorResult {
  try {
    const reqs = new Parser(tokenize(s)).parse()
    return { ok: true, selector: new RequirementsSelector(sortedByKey(reqs)) }
  } catch (e) {
    if (e instanceof SyntaxFault) return { ok: false, message: e.message }
    throw e
  }
}
