// Name formats: every detail string must equal apimachinery's, byte for byte (double spaces included).
import { describe, expect, it } from 'vitest'
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maskTrailingDash,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  regexError,
  validateNamespaceName,
} from '../../../src/registry/validation/names'

const LABEL = String.raw`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
const SUBDOMAIN = String.raw`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
const DNS1035 = String.raw`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`
const QUALIFIED = String.raw`must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
const QUALIFIED_TOO_MANY_SLASHES = String.raw`a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`
const LABEL_VALUE = String.raw`a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`

type Case = [input: string, expected: string[]]

const table = (fn: (v: string) => string[], cases: Case[]) =>
  it.each(cases)('%j', (input, expected) => {
    expect(fn(input)).toEqual(expected)
  })

describe('regexError', () => {
  it('joins examples with the double space kube prints', () => {
    expect(regexError('msg', 're', 'a', 'b')).toBe("msg (e.g. 'a',  or 'b', regex used for validation is 're')")
    expect(regexError('msg', 're')).toBe("msg (regex used for validation is 're')")
  })
})

describe('isDNS1123Label', () => {
  table(isDNS1123Label, [
    ['a', []],
    ['my-name', []],
    ['123-abc', []],
    ['a'.repeat(63), []],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['', [LABEL]],
    ['A', [LABEL]],
    ['-a', [LABEL]],
    ['a-', [LABEL]],
    ['a_b', [LABEL]],
    ['a.b', ['must not contain dots']],
    [`${'a.'.repeat(35)}a`, ['must be no more than 63 characters', 'must not contain dots']],
    // Limits are UTF-8 bytes: 40 characters, 80 bytes.
    ['é'.repeat(40), ['must be no more than 63 characters', LABEL]],
  ])
})

describe('isDNS1123Subdomain', () => {
  table(isDNS1123Subdomain, [
    ['example.com', []],
    ['a-b.c-d.e', []],
    ['0', []],
    ['a'.repeat(253), []],
    ['a'.repeat(254), ['must be no more than 253 characters']],
    ['Bad_Name', [SUBDOMAIN]],
    ['', [SUBDOMAIN]],
    ['a..b', [SUBDOMAIN]],
    ['.a', [SUBDOMAIN]],
    ['a.', [SUBDOMAIN]],
    ['a.-b', [SUBDOMAIN]],
    ['A'.repeat(254), ['must be no more than 253 characters', SUBDOMAIN]],
  ])
})

describe('isDNS1035Label', () => {
  table(isDNS1035Label, [
    ['my-name', []],
    ['abc-123', []],
    ['a'.repeat(63), []],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['1svc', [DNS1035]],
    ['', [DNS1035]],
    ['svc-', [DNS1035]],
    // No dot special case here, unlike the RFC 1123 label.
    ['no-domain.com', [DNS1035]],
  ])
})

describe('isQualifiedName', () => {
  table(isQualifiedName, [
    ['MyName', []],
    ['my.name', []],
    ['123-abc', []],
    ['a_b', []],
    ['example.com/MyName', []],
    ['k8s.io/a', []],
    ['a'.repeat(63), []],
    [`${'a'.repeat(253)}/${'b'.repeat(63)}`, []],
    ['', ['name part must be non-empty', `name part ${QUALIFIED}`]],
    ['a/', ['name part must be non-empty', `name part ${QUALIFIED}`]],
    ['/a', ['prefix part must be non-empty']],
    ['/', ['prefix part must be non-empty', 'name part must be non-empty', `name part ${QUALIFIED}`]],
    ['a/b/c', [QUALIFIED_TOO_MANY_SLASHES]],
    ['Example.com/a', [`prefix part ${SUBDOMAIN}`]],
    [`${'a'.repeat(254)}/a`, ['prefix part must be no more than 253 characters']],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    ['_a', [`name part ${QUALIFIED}`]],
    ['a-', [`name part ${QUALIFIED}`]],
    ['bad key', [`name part ${QUALIFIED}`]],
    ['Bad_/-', [`prefix part ${SUBDOMAIN}`, `name part ${QUALIFIED}`]],
  ])
})

describe('isValidLabelValue', () => {
  table(isValidLabelValue, [
    ['', []],
    ['MyValue', []],
    ['my_value', []],
    ['12345', []],
    ['a.b-c_d', []],
    ['a'.repeat(63), []],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['bad value!', [LABEL_VALUE]],
    ['-a', [LABEL_VALUE]],
    ['a/b', [LABEL_VALUE]],
    ['-'.repeat(64), ['must be no more than 63 characters', LABEL_VALUE]],
  ])
})

describe('maskTrailingDash', () => {
  it.each([
    ['abc', 'abc'],
    // kube replaces the last two characters, not just the dash.
    ['ab-', 'aa'],
    ['web-', 'wea'],
    ['a-', 'a'],
    // kube would panic on the lone dash; left as is, it fails validation.
    ['-', '-'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(maskTrailingDash(input)).toBe(expected)
  })
})

describe('name validators', () => {
  type NameCase = [fn: (n: string, p: boolean) => string[], name: string, prefix: boolean, expected: string[]]
  it.each<NameCase>([
    [nameIsDNSSubdomain, 'web', false, []],
    [nameIsDNSSubdomain, 'web-', false, [SUBDOMAIN]],
    [nameIsDNSSubdomain, 'web-', true, []],
    [nameIsDNSSubdomain, 'web.', true, [SUBDOMAIN]],
    // The masked form "aa" of "a.-" is valid, so kube accepts this prefix.
    [nameIsDNSSubdomain, 'a.-', true, []],
    [nameIsDNSSubdomain, 'Bad_', true, [SUBDOMAIN]],
    [nameIsDNSSubdomain, '-', true, [SUBDOMAIN]],
    [nameIsDNSLabel, 'ns-', true, []],
    [nameIsDNSLabel, 'a.b-', true, ['must not contain dots']],
    // 64 bytes ending in '-' masks to 63: accepted, as in kube.
    [nameIsDNSLabel, `${'a'.repeat(63)}-`, true, []],
    [nameIsDNSLabel, `${'a'.repeat(63)}-`, false, ['must be no more than 63 characters', LABEL]],
    [nameIsDNS1035Label, 'svc-', true, []],
    [nameIsDNS1035Label, 'svc-', false, [DNS1035]],
    [nameIsDNS1035Label, '1svc-', true, [DNS1035]],
    [validateNamespaceName, 'default', false, []],
    [validateNamespaceName, 'kube.system', false, ['must not contain dots']],
  ])('%o(%j, %j)', (fn, name, prefix, expected) => {
    expect(fn(name, prefix)).toEqual(expected)
  })
})
