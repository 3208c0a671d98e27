// ValidFieldPath (apiextensions pkg/apiserver/schema/cel/validation.go): a JSON path into a structural schema
// (`.spec.foo`, `.spec['a.b']`, `.metadata.labels.x` through additionalProperties), the field.Path it names and the
// schema it reaches. Selectable fields, CEL rules' fieldPath and printer columns' paths use it.
import { FieldPath } from '../field-errors'
import type { Structural } from './structural'

type ResolvedPath = { path: FieldPath; root: string; schema: Structural } | { error: string }

/** Splits as kube's scanner does: '.', '[' and ']' alone, single-quoted strings whole, the rest between them. */
function tokens(s: string): string[] {
  const out: string[] = []
  let i = 0
  while (i < s.length) {
    const c = s[i]!
    if (c === "'") {
      let j = i + 1
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++
      out.push(s.slice(i, j + 1))
      i = j + 1
    } else if (c === '.' || c === '[' || c === ']') {
      out.push(c)
      i++
    } else {
      let j = i
      while (j < s.length && !'.[]'.includes(s[j]!)) j++
      out.push(s.slice(i, j))
      i = j
    }
  }
  return out
}

/** unescapeSingleQuote: \' \" \\ \n \r \t only. */
function unescapeSingleQuote(s: string): string | null {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      out += s[i]
      continue
    }
    const n = s[++i]
    const map: Record<string, string> = { "'": "'", '"': '"', '\\': '\\', n: '\n', r: '\r', t: '\t' }
    if (n === undefined || !(n in map)) return null
    out += map[n]
  }
  return out
}

export function validFieldPath(jsonPath: string, root: Structural, allowArrayNotation = true): ResolvedPath {
  let path = new FieldPath()
  let schema: Structural | undefined = root
  let first = ''
  const step = (name: string): string | null => {
    if (!schema) return 'does not refer to a valid field'
    if (schema.properties) {
      path = path.child(name)
      schema = schema.properties[name]
      if (!schema) return 'does not refer to a valid field'
    } else if (schema.additionalProperties) {
      path = path.key(name)
      schema = schema.additionalProperties.structural
    } else return 'does not refer to a valid field'
    if (!first) first = name
    return null
  }
  const toks = tokens(jsonPath)
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' }
      const q = toks[++i]
      if (q === undefined) return { error: 'unexpected end of JSON path' }
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'")
        return { error: `expected single quoted string but got ${q}` }
      const name = unescapeSingleQuote(q.slice(1, -1))
      if (name === null) return { error: 'invalid string literal: invalid escape sequence' }
      const bad = step(name)
      if (bad) return { error: bad }
      const close = toks[++i]
      if (close === undefined) return { error: 'unexpected end of JSON path' }
      if (close !== ']') return { error: `expected ] but got ${close}` }
    } else if (tok === '.') {
      const name = toks[++i]
      if (name === undefined) return { error: 'unexpected end of JSON path' }
      const bad = step(name)
      if (bad) return { error: bad }
    } else return { error: `expected [ or . but got: ${tok}` }
  }
  if (!schema) return { error: 'does not refer to a valid field' }
  return { path, root: first, schema }
}
