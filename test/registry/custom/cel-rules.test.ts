// x-kubernetes-validations as kube compiles and runs them: CRD-time errors (syntax, undeclared names and fields,
// overloads, result types, oldSelf where it cannot correlate, optionalOldSelf, cost) and write-time results
// (message, messageExpression, reason, fieldPath, transition rules, ratcheting, the Kubernetes libraries).
import { describe, expect, it } from 'vitest'
import { checkRules } from '../../../src/registry/custom/cel/cel-rules'
import { ruleValidator } from '../../../src/registry/custom/cel/cel-validator'
import type { JSONSchemaProps } from '../../../src/registry/crd/json-schema'
import { newStructural } from '../../../src/registry/crd/structural'
import { FieldPath, renderFieldError } from '../../../src/registry/field-errors'

const V = 'spec.validation.openAPIV3Schema'

/** A root schema whose spec has `props` and the rules given. */
function schema(rules: object[], props: Record<string, JSONSchemaProps> = {}): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'],
        properties: {
          replicas: { type: 'integer' },
          image: { type: 'string', maxLength: 64 },
          tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 16 } },
          memory: { type: 'string', maxLength: 16 },
          endpoint: { type: 'string', maxLength: 256 },
          ...props,
        },
      },
    },
  }
}

const check = (s: JSONSchemaProps) => checkRules(newStructural(s), new FieldPath(V)).map(renderFieldError)
const rule = (r: string, extra = '') =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(r)}, Message:"${extra}", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`
const at = `${V}.properties[spec].x-kubernetes-validations[0].rule`

describe('CEL rules at CRD time', () => {
  it.each([
    [
      'an undefined field',
      'self.replica > 1',
      `compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 1\n | ....^`,
    ],
    [
      'an undeclared name',
      'foo == 1',
      `compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^`,
    ],
    [
      'an undeclared function',
      'self.image.shout()',
      `compilation failed: ERROR: <input>:1:17: undeclared reference to 'shout' (in container '')\n | self.image.shout()\n | ................^`,
    ],
    [
      'no overload',
      "self.replicas < 'a'",
      `compilation failed: ERROR: <input>:1:15: found no matching overload for '_<_' applied to '(int, string)'\n | self.replicas < 'a'\n | ..............^`,
    ],
    ['a result that is not bool', 'self.replicas + 1', 'cel expression must evaluate to a bool'],
  ])('%s', (_name, r, detail) => {
    expect(check(schema([{ rule: r }]))).toEqual([`${at}: Invalid value: ${rule(r)}: ${detail}`])
  })

  it('a syntax error', () => {
    const [err] = check(schema([{ rule: 'self.replicas >' }]))
    expect(err).toMatch(
      new RegExp(
        `^${at.replace(/[[\].]/g, '\\$&')}: Invalid value: .*: compilation failed: ERROR: <input>:1:\\d+: Syntax error: `,
      ),
    )
  })

  it('oldSelf where items cannot be correlated, optionalOldSelf without oldSelf', () => {
    const s = schema([{ rule: 'self.replicas >= 0', optionalOldSelf: true }], {
      list: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
    })
    expect(check(s)).toEqual([
      `${at.replace('.rule', '.optionalOldSelf')}: Invalid value: true: may not be set if oldSelf is not used in rule`,
      `${V}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${V}.properties[spec].properties[list]`,
    ])
  })

  it('rules over unbounded lists of unbounded strings exceed the cost budget', () => {
    const s = schema([{ rule: "self.names.all(n, n.startsWith('a'))" }], {
      names: { type: 'array', items: { type: 'string' } },
    })
    const hint =
      '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)'
    expect(check(s)).toEqual([
      `${at}: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
      // One such rule is also past the budget of the whole schema.
      `${at}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${V}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
    ])
    const bounded = schema([{ rule: "self.tags.all(n, n.startsWith('a'))" }])
    expect(check(bounded)).toEqual([])
  })

  it('accepts the Kubernetes libraries', () => {
    const rules = [
      'self.tags.isSorted() && self.tags.indexOf("a") >= -1',
      "quantity(self.memory).isLessThan(quantity('1Gi'))",
      "isURL(self.endpoint) && url(self.endpoint).getScheme() == 'https'",
      "self.image.lowerAscii().matches('^[a-z:/.]+$') && self.image.find('[a-z]+') != ''",
    ].map((r) => ({ rule: r }))
    expect(check(schema(rules))).toEqual([])
  })
})

const validate = (s: JSONSchemaProps, obj: unknown, old: unknown = null) =>
  ruleValidator(newStructural(s))!.validate(obj, old).map(renderFieldError)

describe('CEL rules at write time', () => {
  it('a false rule: its message, or failed rule, at the node with its type as the value', () => {
    const s = schema([{ rule: 'self.replicas <= 5', message: 'at most five' }, { rule: 'self.image != ""' }])
    expect(validate(s, { spec: { replicas: 6, image: '' } })).toEqual([
      'spec: Invalid value: "object": at most five',
      'spec: Invalid value: "object": failed rule: self.image != ""',
    ])
    expect(validate(s, { spec: { replicas: 1, image: 'x' } })).toEqual([])
  })

  it('messageExpression, reason and fieldPath', () => {
    const s = schema([
      {
        rule: 'self.replicas <= 5',
        messageExpression: "'too many: ' + string(self.replicas)",
        reason: 'FieldValueForbidden',
        fieldPath: '.replicas',
      },
    ])
    expect(validate(s, { spec: { replicas: 7 } })).toEqual(['spec.replicas: Forbidden: too many: 7'])
  })

  it('transition rules run against the old value, and not on create', () => {
    const s = schema([{ rule: 'self.replicas >= oldSelf.replicas', message: 'replicas may not shrink' }])
    expect(validate(s, { spec: { replicas: 1 } })).toEqual([])
    expect(validate(s, { spec: { replicas: 1 } }, { spec: { replicas: 3 } })).toEqual([
      'spec: Invalid value: "object": replicas may not shrink',
    ])
    const optional = schema([
      { rule: '!oldSelf.hasValue() || self.image == oldSelf.value().image', optionalOldSelf: true },
    ])
    expect(validate(optional, { spec: { image: 'a' } })).toEqual([])
    expect(validate(optional, { spec: { image: 'a' } }, { spec: { image: 'b' } })).toEqual([
      'spec: Invalid value: "object": failed rule: !oldSelf.hasValue() || self.image == oldSelf.value().image',
    ])
  })

  it('an unchanged value is not held to a rule it already broke (ratcheting)', () => {
    const s = schema([{ rule: 'self.replicas <= 5' }])
    expect(validate(s, { spec: { replicas: 9 } }, { spec: { replicas: 9 } })).toEqual([])
  })

  it('runtime errors are reported with the rule', () => {
    const s = schema([{ rule: 'self.replicas > 0' }])
    expect(validate(s, { spec: {} })[0]).toMatch(
      /^spec: Invalid value: "object": .* evaluating rule: self.replicas > 0$/,
    )
  })

  it('the libraries run: lists, quantity, url, regex', () => {
    const s = schema([
      { rule: 'self.tags.isSorted()', message: 'sorted' },
      { rule: "quantity(self.memory).isLessThan(quantity('1Gi'))", message: 'small' },
      { rule: "url(self.endpoint).getScheme() == 'https'", message: 'https' },
      { rule: "self.image.find('[0-9]+') == '42'", message: 'find' },
    ])
    expect(
      validate(s, { spec: { tags: ['a', 'b'], memory: '512Mi', endpoint: 'https://x/y', image: 'app:42' } }),
    ).toEqual([])
    expect(validate(s, { spec: { tags: ['b', 'a'], memory: '2Gi', endpoint: 'http://x', image: 'app' } })).toEqual([
      'spec: Invalid value: "object": sorted',
      'spec: Invalid value: "object": small',
      'spec: Invalid value: "object": https',
      'spec: Invalid value: "object": find',
    ])
  })
})
