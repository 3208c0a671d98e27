// Label selector tests: grammar, matching, kube's exact error messages, metav1 conversion and index hints.
import { describe, expect, it } from 'vitest'
import { compareUtf8, goQuote } from '../../../src/registry/go-strings'
import {
  indexableRequirement,
  labelSelectorFromMatchLabels,
  labelSelectorFromMetaV1,
  parseLabelSelector,
  type LabelRequirement,
  type LabelSelector,
} from '../../../src/registry/label-selector'

function parsed(s: string): LabelSelector {
  const r = parseLabelSelector(s)
  if (!r.ok) throw new Error(`expected ${JSON.stringify(s)} to parse, got: ${r.message}`)
  return r.selector
}

function parseError(s: string): string {
  const r = parseLabelSelector(s)
  if (r.ok) throw new Error(`expected ${JSON.stringify(s)} to fail, got: ${r.selector.toString()}`)
  return r.message
}

const req = (key: string, operator: LabelRequirement['operator'], ...values: string[]): LabelRequirement => ({
  key,
  operator,
  values,
})

// Upstream wording, copied from kube's own test expectations and real kubectl output rather than from our constants.
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
const QUALIFIED =
  "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
const PREFIX_PART =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
const NOT_INT = "for 'Gt', 'Lt' operators, the value must be an integer"
const OPS = 'in, notin, =, ==, !=, gt, lt'

describe('parseLabelSelector: accepted grammar', () => {
  const cases: Array<[input: string, requirements: LabelRequirement[], printed: string]> = [
    ['', [], ''],
    ['  \t ', [], ''],
    ['x=a', [req('x', '=', 'a')], 'x=a'],
    ['x==a', [req('x', '==', 'a')], 'x==a'],
    ['x!=a', [req('x', '!=', 'a')], 'x!=a'],
    ['x in (a,b)', [req('x', 'in', 'a', 'b')], 'x in (a,b)'],
    ['x notin (b,a)', [req('x', 'notin', 'a', 'b')], 'x notin (a,b)'],
    ['x', [req('x', 'exists')], 'x'],
    ['!x', [req('x', '!')], '!x'],
    ['x>1', [req('x', 'gt', '1')], 'x>1'],
    ['x<10', [req('x', 'lt', '10')], 'x<10'],
    ['x > 1', [req('x', 'gt', '1')], 'x>1'],
    // whitespace around every token, including the four kinds kube's lexer knows
    [' x = a , y != b ', [req('x', '=', 'a'), req('y', '!=', 'b')], 'x=a,y!=b'],
    ['a\t==\nb\r', [req('a', '==', 'b')], 'a==b'],
    ['x in ( a , b )', [req('x', 'in', 'a', 'b')], 'x in (a,b)'],
    ['x notin(a)', [req('x', 'notin', 'a')], 'x notin (a)'],
    ['! x', [req('x', '!')], '!x'],
    // empty values
    ['x=', [req('x', '=', '')], 'x='],
    ['x!=', [req('x', '!=', '')], 'x!='],
    ['x=,y', [req('x', '=', ''), req('y', 'exists')], 'x=,y'],
    ['x in ()', [req('x', 'in', '')], 'x in ()'],
    ['x in (,a)', [req('x', 'in', '', 'a')], 'x in (,a)'],
    ['x in (a,)', [req('x', 'in', '', 'a')], 'x in (,a)'],
    ['x in (a,,b)', [req('x', 'in', '', 'a', 'b')], 'x in (,a,b)'],
    ['x in (,)', [req('x', 'in', '')], 'x in ()'],
    // set members are sorted and de-duplicated
    ['x in (b,a,b)', [req('x', 'in', 'a', 'b')], 'x in (a,b)'],
    // requirements are sorted by key; duplicates of a key are all kept
    ['z=1,a=2', [req('a', '=', '2'), req('z', '=', '1')], 'a=2,z=1'],
    ['x=a,x!=b', [req('x', '=', 'a'), req('x', '!=', 'b')], 'x=a,x!=b'],
    // in/notin are keywords only in operator position
    ['in in (in,notin)', [req('in', 'in', 'in', 'notin')], 'in in (in,notin)'],
    ['notin', [req('notin', 'exists')], 'notin'],
    ['x=in', [req('x', '=', 'in')], 'x=in'],
    ['!in', [req('in', '!')], '!in'],
    // qualified keys
    ['example.com/app=web', [req('example.com/app', '=', 'web')], 'example.com/app=web'],
    [
      'kubernetes.io/service-name=websvc',
      [req('kubernetes.io/service-name', '=', 'websvc')],
      'kubernetes.io/service-name=websvc',
    ],
    ['A_b.c-D=Val_1.x-Y', [req('A_b.c-D', '=', 'Val_1.x-Y')], 'A_b.c-D=Val_1.x-Y'],
    ['k=' + 'v'.repeat(63), [req('k', '=', 'v'.repeat(63))], 'k=' + 'v'.repeat(63)],
    // what kubectl sends for `get pods -l 'app=web,tier!=x,env notin (a,b),!gone'`
    [
      'app=web,tier!=x,env notin (a,b),!gone',
      [req('app', '=', 'web'), req('env', 'notin', 'a', 'b'), req('gone', '!'), req('tier', '!=', 'x')],
      'app=web,env notin (a,b),!gone,tier!=x',
    ],
    // a NUL byte ends a token, and the selector if a token would start there (kube's lexer uses 0 as end of input)
    ['a\u0000', [req('a', 'exists')], 'a'],
    ['a=b\u0000', [req('a', '=', 'b')], 'a=b'],
    ['a=b,\u0000x', [req('a', '=', 'b'), req('x', 'exists')], 'a=b,x'],
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
    expect(again.requirements).toEqual(sel.requirements)
    expect(again.toString()).toBe(sel.toString())
  })
})

describe('parseLabelSelector: matching', () => {
  const cases: Array<[selector: string, labels: Record<string, string> | undefined, expected: boolean]> = [
    ['', undefined, true],
    ['', { a: 'b' }, true],
    ['x=a', { x: 'a' }, true],
    ['x==a', { x: 'a' }, true],
    ['x=a', { x: 'b' }, false],
    ['x=a', {}, false],
    ['x=a', undefined, false],
    ['x=', { x: '' }, true],
    ['x=', {}, false],
    // != and notin also select objects without the key
    ['x!=a', {}, true],
    ['x!=a', undefined, true],
    ['x!=a', { x: 'a' }, false],
    ['x!=a', { x: 'b' }, true],
    ['x notin (a,b)', {}, true],
    ['x notin (a,b)', { x: 'a' }, false],
    ['x notin (a,b)', { x: 'c' }, true],
    ['x in (a,b)', { x: 'b' }, true],
    ['x in (a,b)', { x: 'c' }, false],
    ['x in (a,b)', {}, false],
    ['x in ()', { x: '' }, true],
    ['x in (,a)', { x: '' }, true],
    ['x', { x: '' }, true],
    ['x', {}, false],
    ['!x', {}, true],
    ['!x', undefined, true],
    ['!x', { x: '' }, false],
    // numeric comparisons parse both sides as int64; anything unparsable does not match
    ['x>1', { x: '2' }, true],
    ['x>1', { x: '1' }, false],
    ['x>1', { x: '10' }, true],
    ['x>1', { x: 'abc' }, false],
    ['x>1', {}, false],
    ['x<1', { x: '0' }, true],
    ['x<1', { x: '-5' }, true],
    ['x<1', { x: '1' }, false],
    ['x>9223372036854775806', { x: '9223372036854775807' }, true],
    ['x>9223372036854775806', { x: '9223372036854775808' }, false],
    // only own properties count
    ['constructor', {}, false],
    ['!constructor', {}, true],
    ['toString=x', {}, false],
    ['hasOwnProperty!=x', {}, true],
    // AND
    ['a=1,b=2', { a: '1', b: '2' }, true],
    ['a=1,b=2', { a: '1' }, false],
    ['a=1,!b', { a: '1', c: '3' }, true],
  ]
  it.each(cases)('%j on %j is %s', (selector, labels, expected) => {
    expect(parsed(selector).matches(labels)).toBe(expected)
  })
})

describe('parseLabelSelector: errors carry kube’s message', () => {
  const long = 'a'.repeat(64)
  const cases: Array<[input: string, message: string]> = [
    // top-level structure
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    [',', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
    [')', "found ')', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['a,=b', "found '=', expected: identifier after ','"],
    // key
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!a', "unable to parse requirement: found '!', expected: identifier"],
    ['!(a)', "unable to parse requirement: found '(', expected: identifier"],
    // operator
    ['a b', `unable to parse requirement: found 'b', expected: ${OPS}`],
    ['a (b)', `unable to parse requirement: found '(', expected: ${OPS}`],
    ['a!', `unable to parse requirement: found '!', expected: ${OPS}`],
    ['a\u0000b', `unable to parse requirement: found 'b', expected: ${OPS}`],
    // set values
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a in (', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a in (b,', "unable to parse requirement: found '', expected: ',', or identifier"],
    // exact values
    ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
    ['a>=1', "unable to parse requirement: found '=', expected: identifier"],
    ['a===b', "unable to parse requirement: found '=', expected: identifier"],
    ['a=!b', "unable to parse requirement: found '!', expected: identifier"],
    ['a=b, \u0000x', "found '', expected: identifier after ','"],
    // key validation: the parser's field path is nil, which Go prints as <nil>
    ['app:monolith', `unable to parse requirement: <nil>: Invalid value: "app:monolith": ${NAME_PART}`],
    ['*bar=x', `unable to parse requirement: <nil>: Invalid value: "*bar": ${NAME_PART}`],
    ['a/b/c ?=? def', `unable to parse requirement: <nil>: Invalid value: "a/b/c": ${QUALIFIED}`],
    [
      'app.kubernetes_io/name=x',
      `unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io/name": ${PREFIX_PART}`,
    ],
    ['Example.com/x', `unable to parse requirement: <nil>: Invalid value: "Example.com/x": ${PREFIX_PART}`],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
    ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ${NAME_PART}`],
    [
      long,
      `unable to parse requirement: <nil>: Invalid value: "${long}": name part must be no more than 63 characters`,
    ],
    [
      `${'a'.repeat(254)}/b`,
      `unable to parse requirement: <nil>: Invalid value: "${'a'.repeat(254)}/b": prefix part must be no more than 253 characters`,
    ],
    [
      `-${long}`,
      `unable to parse requirement: <nil>: Invalid value: "-${long}": name part must be no more than 63 characters; ${NAME_PART}`,
    ],
    // value validation: paths are values[i][key], indexes in sorted order, several errors bracketed
    ['app=-bad', `unable to parse requirement: values[0][app]: Invalid value: "-bad": ${LABEL_VALUE}`],
    [
      `app=${long}`,
      `unable to parse requirement: values[0][app]: Invalid value: "${long}": must be no more than 63 characters`,
    ],
    [
      'app=' + 'é'.repeat(32),
      `unable to parse requirement: values[0][app]: Invalid value: "${'é'.repeat(32)}": must be no more than 63 characters; ${LABEL_VALUE}`,
    ],
    [
      'app in (ok,-b,-a)',
      `unable to parse requirement: [values[0][app]: Invalid value: "-a": ${LABEL_VALUE}, values[1][app]: Invalid value: "-b": ${LABEL_VALUE}]`,
    ],
    ['x=a\u0001', `unable to parse requirement: values[0][x]: Invalid value: "a\\x01": ${LABEL_VALUE}`],
    ['x=a\u000bb', `unable to parse requirement: values[0][x]: Invalid value: "a\\vb": ${LABEL_VALUE}`],
    ['x="q"', `unable to parse requirement: values[0][x]: Invalid value: "\\"q\\"": ${LABEL_VALUE}`],
    // numeric operators
    ['x>a', `unable to parse requirement: values[0]: Invalid value: "a": ${NOT_INT}`],
    ['x>', `unable to parse requirement: values[0]: Invalid value: "": ${NOT_INT}`],
    ['x<1.5', `unable to parse requirement: values[0]: Invalid value: "1.5": ${NOT_INT}`],
    [
      'x>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": ${NOT_INT}`,
    ],
    // a negative bound is an integer but not a valid label value
    ['x<-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${LABEL_VALUE}`],
    [
      'x>-a',
      `unable to parse requirement: [values[0]: Invalid value: "-a": ${NOT_INT}, values[0][x]: Invalid value: "-a": ${LABEL_VALUE}]`,
    ],
  ]
  it.each(cases)('%j', (input, message) => {
    expect(parseError(input)).toBe(message)
  })

  it('matches the wording of the task brief for an invalid value', () => {
    // The brief's example value cannot come from a query string (the space splits it), so build it from matchExpressions.
    const r = labelSelectorFromMetaV1({ matchExpressions: [{ key: 'app', operator: 'In', values: ['bad value!'] }] })
    expect(r).toEqual({ ok: false, message: `values[0][app]: Invalid value: "bad value!": ${LABEL_VALUE}` })
  })
})

describe('goQuote renders values like Go’s %q', () => {
  it.each([
    ['plain', '"plain"'],
    ['é中', '"é中"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\u0000\u0007\u007f', '"\\x00\\a\\x7f"'],
    ['\u00ad', '"\\u00ad"'],
    ['\u{1F600}', '"\u{1F600}"'],
    ['\u{E0001}', '"\\U000e0001"'],
  ])('%j', (input, quoted) => {
    expect(goQuote(input)).toBe(quoted)
  })
})

describe('compareUtf8 orders like Go’s sort.Strings', () => {
  it('puts U+FF21 before U+1F600, unlike UTF-16 order', () => {
    expect(['\u{1F600}', '\uFF21', 'b', 'a'].sort(compareUtf8)).toEqual(['a', 'b', '\uFF21', '\u{1F600}'])
  })
})

describe('labelSelectorFromMatchLabels', () => {
  it('builds sorted equality requirements', () => {
    const sel = labelSelectorFromMatchLabels({ b: '2', a: '1' })
    expect(sel.requirements).toEqual([req('a', '=', '1'), req('b', '=', '2')])
    expect(sel.toString()).toBe('a=1,b=2')
    expect(sel.matches({ a: '1', b: '2', c: '3' })).toBe(true)
    expect(sel.matches({ a: '1' })).toBe(false)
  })
  it.each([undefined, null, {}])('%j selects everything', (set) => {
    const sel = labelSelectorFromMatchLabels(set)
    expect(sel.isEmpty()).toBe(true)
    expect(sel.matches(undefined)).toBe(true)
  })
  it('does not validate, like labels.SelectorFromSet', () => {
    expect(labelSelectorFromMatchLabels({ 'not a key': 'not a value' }).matches({ 'not a key': 'not a value' })).toBe(
      true,
    )
  })
})

describe('labelSelectorFromMetaV1', () => {
  it('null selects nothing, yet is not empty', () => {
    const r = labelSelectorFromMetaV1(null)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.selector.matches({})).toBe(false)
    expect(r.selector.matches(undefined)).toBe(false)
    expect(r.selector.isEmpty()).toBe(false)
    expect(r.selector.toString()).toBe('')
    expect(indexableRequirement(r.selector)).toBeNull()
  })

  it('{} selects everything', () => {
    const r = labelSelectorFromMetaV1({})
    expect(r.ok && r.selector.isEmpty() && r.selector.matches(undefined)).toBe(true)
  })

  it('converts matchLabels and every matchExpressions operator', () => {
    const r = labelSelectorFromMetaV1({
      matchLabels: { tier: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'zone', operator: 'NotIn', values: ['z'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist', values: [] },
      ],
    })
    if (!r.ok) throw new Error(r.message)
    // kube keeps the values as given and sorts them only when printing
    expect(r.selector.requirements).toEqual([
      req('env', 'in', 'prod', 'dev'),
      req('legacy', '!'),
      req('owner', 'exists'),
      req('tier', '=', 'web'),
      req('zone', 'notin', 'z'),
    ])
    expect(r.selector.toString()).toBe('env in (dev,prod),!legacy,owner,tier=web,zone notin (z)')
    expect(r.selector.matches({ env: 'dev', owner: 'me', tier: 'web' })).toBe(true)
    expect(r.selector.matches({ env: 'dev', owner: 'me', tier: 'web', legacy: 'y' })).toBe(false)
    expect(parsed(r.selector.toString()).toString()).toBe(r.selector.toString())
  })

  it.each<[string, Parameters<typeof labelSelectorFromMetaV1>[0], string]>([
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'NotIn with values absent',
      { matchExpressions: [{ key: 'a', operator: 'NotIn' }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] },
      'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    ],
    [
      'an unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
      '"Gt" is not a valid label selector operator',
    ],
    ['a bad matchLabels key', { matchLabels: { '-a': 'x' } }, `key: Invalid value: "-a": ${NAME_PART}`],
    ['a bad matchLabels value', { matchLabels: { a: '-x' } }, `values[0][a]: Invalid value: "-x": ${LABEL_VALUE}`],
    [
      'a bad key and value together',
      { matchExpressions: [{ key: '-k', operator: 'In', values: ['-v'] }] },
      `[key: Invalid value: "-k": ${NAME_PART}, values[0][-k]: Invalid value: "-v": ${LABEL_VALUE}]`,
    ],
    [
      'the first bad matchLabels key in sorted order',
      { matchLabels: { '-z': '1', '-b': '2' } },
      `key: Invalid value: "-b": ${NAME_PART}`,
    ],
  ])('rejects %s', (_name, input, message) => {
    expect(labelSelectorFromMetaV1(input)).toEqual({ ok: false, message })
  })
})

describe('indexableRequirement', () => {
  it.each<[string, { key: string; values: string[] | null } | null]>([
    ['a in (x,y),b=1,c', { key: 'b', values: ['1'] }],
    ['x==1', { key: 'x', values: ['1'] }],
    ['a in (y,x),c', { key: 'a', values: ['x', 'y'] }],
    ['c,!d', { key: 'c', values: null }],
    ['a!=1,!b,c notin (x),d>1', null],
    ['', null],
  ])('%j', (selector, expected) => {
    expect(indexableRequirement(parsed(selector))).toEqual(expected)
  })
})
