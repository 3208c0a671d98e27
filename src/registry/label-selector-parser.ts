// Lexer and parser of the labelSelector query parameter (labels.Parse). It yields validated requirements only; turning
// them into a selector is label-selector.ts's job, which keeps this module free of a runtime import back into it.
import { compareUtf8, goQuote } from './go-strings'
import { newLabelRequirement, type LabelOperator, type LabelRequirement } from './label-requirement'
import { invalid, labelKeyError } from './label-validation'

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
const isSymbolChar = (c: string) =>
  c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<'
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
      if (t.kind !== 'word' && t.kind !== '!')
        throw new SyntaxFault(`found '${t.text}', expected: !, identifier, or 'end of string'`)
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
      if (t2.kind !== 'word' && t2.kind !== '!')
        throw new SyntaxFault(`found '${t2.text}', expected: identifier after ','`)
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
    if (first.kind !== 'word' && first.kind !== ',')
      throw new SyntaxFault(`found '${first.text}', expected: ',', ')' or identifier`)
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

/** The requirements of a labelSelector string, in written order, or kube's error text. */
export function parseLabelRequirements(
  s: string,
): { ok: true; requirements: LabelRequirement[] } | { ok: false; message: string } {
  try {
    return { ok: true, requirements: new Parser(tokenize(s)).parse() }
  } catch (e) {
    if (e instanceof SyntaxFault) return { ok: false, message: e.message }
    throw e
  }
}
