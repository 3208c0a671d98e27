// Field selector tests: grammar and escapes, matching with missing fields, kube's error messages, the supported-field check.
import { describe, expect, it } from 'vitest'
import {
  checkFieldSelector,
  escapeFieldSelectorValue,
  parseFieldSelector,
  type FieldRequirement,
  type FieldSelector,
} from '../../../src/registry/field-selector'

function parsed(s: string): FieldSelector {
  const r = parseFieldSelector(s)
  if (!r.ok) throw new Error(`expected ${JSON.stringify(s)} to parse, got: ${r.message}`)
  return r.selector
}

const req = (field: string, operator: FieldRequirement['operator'], value: string): FieldRequirement => ({
  field,
  operator,
  value,
})

describe('parseFieldSelector: accepted grammar', () => {
  const cases: Array<[input: string, requirements: FieldRequirement[], printed: string]> = [
    ['', [], ''],
    ['metadata.name=web', [req('metadata.name', '=', 'web')], 'metadata.name=web'],
    ['metadata.name==web', [req('metadata.name', '==', 'web')], 'metadata.name=web'],
    ['spec.clusterIP!=None', [req('spec.clusterIP', '!=', 'None')], 'spec.clusterIP!=None'],
    ['spec.nodeName=', [req('spec.nodeName', '=', '')], 'spec.nodeName='],
    ['spec.nodeName!=', [req('spec.nodeName', '!=', '')], 'spec.nodeName!='],
    ['a==', [req('a', '==', '')], 'a='],
    // terms come back sorted as written
    [
      'involvedObject.name=web,involvedObject.namespace=default,involvedObject.kind=Pod',
      [
        req('involvedObject.kind', '=', 'Pod'),
        req('involvedObject.name', '=', 'web'),
        req('involvedObject.namespace', '=', 'default'),
      ],
      'involvedObject.kind=Pod,involvedObject.name=web,involvedObject.namespace=default',
    ],
    // empty terms are skipped, and so is a term with neither field nor value
    [',a=b,,', [req('a', '=', 'b')], 'a=b'],
    ['=', [], ''],
    ['==,a=b', [req('a', '=', 'b')], 'a=b'],
    ['=x', [req('', '=', 'x')], '=x'],
    // nothing is trimmed
    ['a = b', [req('a ', '=', ' b')], 'a = b'],
    // the first operator splits the term; `=!b` is `=` with value `!b`
    ['a=!b', [req('a', '=', '!b')], 'a=!b'],
    // escapes in values
    ['a=b\\,c', [req('a', '=', 'b,c')], 'a=b\\,c'],
    ['a=b\\=c', [req('a', '=', 'b=c')], 'a=b\\=c'],
    ['a=b\\\\c', [req('a', '=', 'b\\c')], 'a=b\\\\c'],
    ['a=\\\\', [req('a', '=', '\\')], 'a=\\\\'],
    ['a!=\\,\\=\\\\', [req('a', '!=', ',=\\')], 'a!=\\,\\=\\\\'],
    // an escaped comma does not split terms, and fields keep their escapes
    ['a\\,b=c', [req('a\\,b', '=', 'c')], 'a\\,b=c'],
    ['a=é,b=中', [req('a', '=', 'é'), req('b', '=', '中')], 'a=é,b=中'],
    // sorted by UTF-8 bytes as Go does: U+FF21 before U+1F600, the reverse of UTF-16 order
    ['a=\u{1F600},a=\uFF21', [req('a', '=', '\uFF21'), req('a', '=', '\u{1F600}')], 'a=\uFF21,a=\u{1F600}'],
  ]

  it.each(cases)('%j', (input, requirements, printed) => {
    const sel = parsed(input)
    expect(sel.requirements).toEqual(requirements)
    expect(sel.toString()).toBe(printed)
    expect(sel.isEmpty()).toBe(requirements.length === 0)
  })

  it.each(cases)('%j survives a toString round trip', (input) => {
    const sel = parsed(input)
    const again = parsed(sel.toString())
    // `==` prints as `=`, as kube's hasTerm does
    const normal = (rs: FieldRequirement[]) =>
      rs.map((r) => ({ ...r, operator: r.operator === '==' ? '=' : r.operator }))
    expect(normal(again.requirements)).toEqual(normal(sel.requirements))
    expect(again.toString()).toBe(sel.toString())
  })
})

describe('parseFieldSelector: errors carry kube’s message', () => {
  it.each([
    ['foo', "invalid selector: 'foo'; can't understand 'foo'"],
    ['a=b,foo', "invalid selector: 'a=b,foo'; can't understand 'foo'"],
    // terms are sorted before parsing, so the first bad term in sorted order is the one reported
    ['y,x', "invalid selector: 'y,x'; can't understand 'x'"],
    ['a in (b)', "invalid selector: 'a in (b)'; can't understand 'a in (b)'"],
    ['a>1', "invalid selector: 'a>1'; can't understand 'a>1'"],
    // %v of a rune prints its number
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a!==b', 'invalid field selector: unescaped character in value: 61'],
    ['a=\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=\\é', 'invalid field selector: invalid escape sequence: \\é'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['b=\\q,a=x=y', 'invalid field selector: unescaped character in value: 61'],
  ])('%j', (input, message) => {
    expect(parseFieldSelector(input)).toEqual({ ok: false, message })
  })
})

describe('parseFieldSelector: matching', () => {
  it.each<[string, Record<string, string>, boolean]>([
    ['', {}, true],
    ['metadata.name=web', { 'metadata.name': 'web' }, true],
    ['metadata.name=web', { 'metadata.name': 'db' }, false],
    ['metadata.name==web', { 'metadata.name': 'web' }, true],
    // a missing field compares as the empty string
    ['spec.nodeName=', {}, true],
    ['spec.nodeName=', { 'spec.nodeName': '' }, true],
    ['spec.nodeName=', { 'spec.nodeName': 'n1' }, false],
    ['spec.nodeName!=', {}, false],
    ['spec.nodeName!=', { 'spec.nodeName': 'n1' }, true],
    ['spec.nodeName!=n1', {}, true],
    ['spec.nodeName!=n1', { 'spec.nodeName': 'n1' }, false],
    ['a=b\\,c', { a: 'b,c' }, true],
    // only own properties count
    ['constructor=', {}, true],
    ['toString!=', {}, false],
    // AND
    ['status.phase=Running,spec.nodeName!=', { 'status.phase': 'Running', 'spec.nodeName': 'n1' }, true],
    ['status.phase=Running,spec.nodeName!=', { 'status.phase': 'Running' }, false],
  ])('%j on %j is %s', (selector, fields, expected) => {
    expect(parsed(selector).matches(fields)).toBe(expected)
  })
})

describe('exactValue', () => {
  it.each<[string, string, string | undefined]>([
    ['metadata.name=web', 'metadata.name', 'web'],
    ['metadata.name==web', 'metadata.name', 'web'],
    ['metadata.name=', 'metadata.name', ''],
    ['metadata.name!=web', 'metadata.name', undefined],
    ['metadata.name!=x,metadata.name=y', 'metadata.name', 'y'],
    ['spec.nodeName=n1', 'metadata.name', undefined],
    ['', 'metadata.name', undefined],
  ])('%j for %s', (selector, field, expected) => {
    expect(parsed(selector).exactValue(field)).toBe(expected)
  })
})

describe('checkFieldSelector', () => {
  const podFields = ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase'] as const
  it.each<[string, string | null]>([
    ['', null],
    ['metadata.name=x,status.phase!=Failed', null],
    ['metadata.name=x,spec.foo=y', 'field label not supported: spec.foo'],
    // reported in kube's (sorted) term order
    ['z.z=1,b.b=2', 'field label not supported: b.b'],
    ['=x', 'field label not supported: '],
  ])('%j', (selector, message) => {
    expect(checkFieldSelector(parsed(selector), podFields)).toBe(message)
  })
})

describe('escapeFieldSelectorValue', () => {
  it('escapes exactly backslash, comma and equals, in one pass', () => {
    expect(escapeFieldSelectorValue('a\\b,c=d')).toBe('a\\\\b\\,c\\=d')
    const sel = parsed(`f=${escapeFieldSelectorValue('x,=\\y')}`)
    expect(sel.exactValue('f')).toBe('x,=\\y')
  })
})
