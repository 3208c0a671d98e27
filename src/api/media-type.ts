// Reading media types as kube-apiserver's Go code reads them: a Content-Type with Go's mime.ParseMediaType (what
// negotiation.NegotiateInputSerializer asks), an Accept header with github.com/munnerz/goautoneg's ParseAccept (what
// negotiation.NegotiateMediaTypeOptions walks). Both are byte-for-byte ports, quirks included: kube's 406 and 415
// answers depend on them.

/** Go's unicode.IsSpace: the ASCII spaces, NEL, NBSP and the White_Space characters. */
const isGoSpace = (ch: string) => /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/.test(ch)

function trimLeftSpace(s: string): string {
  let i = 0
  while (i < s.length && isGoSpace(s[i]!)) i++
  return s.slice(i)
}

const trimSpace = (s: string) => {
  let end = s.length
  while (end > 0 && isGoSpace(s[end - 1]!)) end--
  return trimLeftSpace(s.slice(0, end))
}

const TSPECIALS = '()<>@,;:\\"/[]?='
const isTokenChar = (ch: string) => {
  const code = ch.charCodeAt(0)
  return code > 0x20 && code < 0x7f && !TSPECIALS.includes(ch)
}

/** mime's consumeToken: the leading token characters, and the rest. */
function consumeToken(v: string): [string, string] {
  let i = 0
  while (i < v.length && isTokenChar(v[i]!)) i++
  return [v.slice(0, i), v.slice(i)]
}

/** mime's consumeValue: a token or a quoted string (a backslash escapes only tspecials, as MSIE needs). */
function consumeValue(v: string): [string, string] {
  if (v === '') return ['', '']
  if (v[0] !== '"') return consumeToken(v)
  let out = ''
  for (let i = 1; i < v.length; i++) {
    const ch = v[i]!
    if (ch === '"') return [out, v.slice(i + 1)]
    if (ch === '\\' && i + 1 < v.length && TSPECIALS.includes(v[i + 1]!)) {
      out += v[++i]
      continue
    }
    if (ch === '\r' || ch === '\n') return ['', v]
    out += ch
  }
  return ['', v]
}

/** mime's consumeMediaParam: `; key=value`, the key lowercased; an empty key when there is none. */
function consumeMediaParam(v: string): [string, string, string] {
  let rest = trimLeftSpace(v)
  if (!rest.startsWith(';')) return ['', '', v]
  rest = trimLeftSpace(rest.slice(1))
  const [param, afterParam] = consumeToken(rest)
  if (param === '') return ['', '', v]
  rest = trimLeftSpace(afterParam)
  if (!rest.startsWith('=')) return ['', '', v]
  rest = trimLeftSpace(rest.slice(1))
  const [value, rest2] = consumeValue(rest)
  if (value === '' && rest2 === rest) return ['', '', v]
  return [param.toLowerCase(), value, rest2]
}

/** mime's checkMediaTypeDisposition: a token, optionally `/` and another token, nothing more. */
function validDisposition(s: string): boolean {
  const [type, rest] = consumeToken(s)
  if (type === '') return false
  if (rest === '') return true
  if (!rest.startsWith('/')) return false
  const [subtype, after] = consumeToken(rest.slice(1))
  return subtype !== '' && after === ''
}

/**
 * Go's mime.ParseMediaType, reduced to what kube asks of it: the media type lowercased, or null where Go returns
 * an error (no type, a malformed parameter, a parameter named twice with two values).
 */
export function parseMediaType(v: string): string | null {
  const semi = v.indexOf(';')
  const base = semi < 0 ? v : v.slice(0, semi)
  const mediaType = trimSpace(base.toLowerCase())
  if (!validDisposition(mediaType)) return null
  const seen = new Map<string, string>()
  let rest = v.slice(base.length)
  while (rest.length > 0) {
    rest = trimLeftSpace(rest)
    if (rest === '') break
    const [key, value, after] = consumeMediaParam(rest)
    if (key === '') {
      // Trailing semicolons are not an error.
      if (trimSpace(after) === ';') break
      return null
    }
    const before = seen.get(key)
    if (before !== undefined && before !== value) return null
    seen.set(key, value)
    rest = after
  }
  return mediaType
}

/** One clause of an Accept header as goautoneg reads it. */
interface AcceptClause {
  type: string
  subType: string
  q: number
  params: Record<string, string>
}

const trimSpaces = (s: string) => s.replace(/^ +| +$/g, '')

/** Go's strconv.ParseFloat(s, 32) as goautoneg uses it: an unparsable q is 0, an overflowing one infinite. */
function parseQ(s: string): number {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity
  if (/^nan$/i.test(s)) return Number.NaN
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Math.fround(Number(s))
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/.exec(s)
  if (hex && (hex[2] || hex[3])) {
    const mantissa = Number.parseInt(`${hex[2]}${hex[3]}` || '0', 16) / 16 ** hex[3]!.length
    return Math.fround((hex[1] === '-' ? -1 : 1) * mantissa * 2 ** Number(hex[4]))
  }
  return 0
}

/** goautoneg's "less": higher q first, then concrete types before `*`; not a strict order, as Go's is not. */
function less(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true
  if (a.type !== '*' && b.type === '*') return true
  if (a.subType !== '*' && b.subType === '*') return true
  return false
}

/** goautoneg's nextSplitElement: the text before the first `sep` and the text after it ('' when absent). */
function next(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep)
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)]
}

/**
 * goautoneg.ParseAccept: clauses split on `,` and `;`, spaces (only spaces) trimmed, a clause without a subtype
 * dropped unless it is `*`, parameters without exactly one `=` dropped, `q` read as a float; then sorted. Go's
 * sort.Sort runs an insertion sort on 12 clauses or fewer, which this is for any number (a header of more clauses
 * is not something a client sends).
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = []
  let remaining = header
  while (remaining.length > 0) {
    let part: string
    ;[part, remaining] = next(remaining, ',')
    const [range, paramText] = next(trimSpaces(part), ';')
    const [first, afterSlash] = next(range, '/')
    const type = trimSpaces(first)
    let subType: string
    if (afterSlash === '') {
      if (type !== '*') continue
      subType = '*'
    } else {
      const [second, extra] = next(afterSlash, '/')
      if (extra !== '') continue
      subType = trimSpaces(second)
    }
    // No prototype: a parameter may be named anything, __proto__ included.
    const clause: AcceptClause = { type, subType, q: 1, params: Object.create(null) }
    let params = paramText
    while (params.length > 0) {
      let param: string
      ;[param, params] = next(params, ';')
      const [key, afterKey] = next(param, '=')
      if (afterKey === '') continue
      const [value, extra] = next(afterKey, '=')
      if (extra !== '') continue
      const token = trimSpaces(key)
      if (token === 'q') clause.q = parseQ(value)
      else clause.params[token] = trimSpaces(value)
    }
    clauses.push(clause)
  }
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      ;[clauses[j], clauses[j - 1]] = [clauses[j - 1]!, clauses[j]!]
    }
  }
  return clauses
}
