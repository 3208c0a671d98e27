// The runtime cost of CEL rules (src/registry/custom/cel/cel-cost.ts) against kube's own numbers: the expressions and
// objects of apiextensions-apiserver's pkg/apiserver/schema/cel/celcoststability_test.go (release-1.33) with the cost
// cel-go reports for each, and kube's limits with its errors: a rule past PerCallLimit (1,000,000) and the rules of
// one write past RuntimeCELCostBudget (10,000,000).
import { parse } from '@bufbuild/cel'
import { describe, expect, it } from 'vitest'
import { meteredEnv, PER_CALL_LIMIT, planMetered } from '../../../src/registry/custom/cel/cel-cost'
import { KUBERNETES_FUNCS } from '../../../src/registry/custom/cel/cel-libs'
import { toCel } from '../../../src/registry/custom/cel/cel-model'
import { ruleValidator } from '../../../src/registry/custom/cel/cel-validator'
import type { JSONSchemaProps } from '../../../src/registry/crd/json-schema'
import { newStructural } from '../../../src/registry/crd/structural'
import { renderFieldError } from '../../../src/registry/field-errors'

const env = meteredEnv(KUBERNETES_FUNCS)

/** The cost of one evaluation of `expr` with self = `obj` under `schema`, and its result. */
function cost(expr: string, schema: JSONSchemaProps, obj: unknown, root = false) {
  const s = newStructural(schema)
  const r = planMetered(env, parse(expr)).run({ self: toCel(obj, s, root) }, PER_CALL_LIMIT)
  return { cost: r.cost, value: r.value }
}

const obj = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties })
const vals = (...schemas: JSONSchemaProps[]) => obj(Object.fromEntries(schemas.map((s, i) => [`val${i + 1}`, s])))
const objOf = (...values: unknown[]) => Object.fromEntries(values.map((v, i) => [`val${i + 1}`, v]))
const INT: JSONSchemaProps = { type: 'integer' }
const NUM: JSONSchemaProps = { type: 'number' }
const STR: JSONSchemaProps = { type: 'string' }
const BOOL: JSONSchemaProps = { type: 'boolean' }
const list = (items: JSONSchemaProps): JSONSchemaProps => ({ type: 'array', items })
const map = (v: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', additionalProperties: v })
const listMap = (items: JSONSchemaProps): JSONSchemaProps => ({
  type: 'array',
  items,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['k'],
})

interface Case {
  name: string
  schema: JSONSchemaProps
  obj: unknown
  root?: boolean
  /** expression → cel-go's cost in kube's test. */
  costs: Record<string, number>
}

const MAX = Number.MAX_SAFE_INTEGER
const CASES: Case[] = [
  {
    name: 'integers',
    schema: vals(INT, INT, INT, INT, INT, INT),
    obj: objOf(MAX, MAX, 2147483647, 2147483647, MAX, MAX),
    costs: {
      'self.val1 == self.val6': 5,
      'type(self.val1) == int': 4,
      'self.val3 + 1 == 2147483647 + 1': 5,
    },
  },
  {
    name: 'numbers',
    schema: vals(NUM, NUM, NUM, NUM, NUM, NUM, NUM),
    obj: objOf(1.5e300, 1.5e300, 3.4e38, 3.4e38, 1.5e300, 1.5e300, 1),
    costs: { 'self.val1 == self.val6': 5, 'type(self.val1) == double': 4, 'self.val7 == 1.0': 3 },
  },
  {
    name: 'numeric comparisons',
    schema: vals(INT, NUM, NUM, NUM, NUM, NUM, NUM),
    obj: objOf(5, 10.5, 10.5, 10.5, 10, 10, 10),
    costs: {
      'double(self.val1) < self.val4': 6,
      'self.val1 < int(self.val4)': 6,
      'double(5) < 10.0': 1,
      '5 < int(10.0)': 1,
      'double(self.val1) < 10.0': 4,
    },
  },
  {
    name: 'unicode strings',
    schema: vals(STR, STR),
    obj: objOf('Rook takes 👑', 'Rook takes 👑'),
    costs: {
      "self.val1.startsWith('Rook')": 4,
      "!self.val1.startsWith('knight')": 5,
      "self.val1.matches('^[^0-9]*$')": 8,
      "!self.val1.matches('^[0-9]*$')": 7,
      'type(self.val1) == string': 4,
      "self.val1.charAt(3) == 'k'": 4,
      "self.val1.indexOf('o') == 1": 4,
      "self.val1.indexOf('o', 2) == 2": 4,
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 7,
      "self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
      "self.val1.substring(5) == 'takes 👑'": 5,
      "self.val1.substring(0, 4) == 'Rook'": 5,
      "self.val1.substring(4, 10).trim() == 'takes'": 6,
      "self.val1.upperAscii() == 'ROOK TAKES 👑'": 6,
      'self.val1.lowerAscii() == self.val1.lowerAscii()': 10,
    },
  },
  {
    name: 'booleans',
    schema: vals(BOOL, BOOL, BOOL, BOOL),
    obj: objOf(true, true, false, false),
    costs: { 'self.val1 != self.val4': 5, 'type(self.val1) == bool': 4 },
  },
  {
    name: 'enums',
    schema: obj({ enumStr: { type: 'string', enum: ['Pending', 'Available', 'Bound', 'Released', 'Failed'] } }),
    obj: { enumStr: 'Pending' },
    costs: { "self.enumStr == 'Pending'": 3, "self.enumStr in ['Pending', 'Available']": 2 },
  },
  {
    name: 'lists',
    schema: vals(list(INT), list(INT)),
    obj: objOf([1, 2, 3], [1, 2, 3]),
    costs: {
      '1 in self.val1': 5,
      'self.val2[0] in self.val1': 8,
      '!(0 in self.val1)': 6,
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]': 6,
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]': 4,
      'has(self.val1)': 1,
      'has(self.val1) && has(self.val2)': 2,
    },
  },
  {
    name: 'maps',
    schema: vals(map(STR), map(STR)),
    obj: objOf({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    costs: {
      'self.val1 == self.val2': 5,
      "'k1' in self.val1": 3,
      "!('k3' in self.val1)": 4,
      "self.val1 == {'k1': 'a', 'k2': 'b'}": 3,
    },
  },
  {
    name: 'object access',
    schema: obj({
      a: obj({ b: INT, c: INT, d: { type: 'integer', nullable: true } }),
      a1: obj({ b1: obj({ c1: INT }), d2: obj({ e2: INT }) }),
    }),
    obj: { a: { b: 1, d: null }, a1: { b1: { c1: 4 } }, a3: {} },
    costs: {
      'has(self.a.b)': 2,
      'has(self.a1.b1.c1)': 3,
      '!(has(self.a1.d2) && has(self.a1.d2.e2))': 3,
      '!has(self.a1.d2)': 3,
    },
  },
  {
    name: 'map access',
    schema: obj({ val: map(INT) }),
    obj: { val: { b: 1, d: 2 } },
    costs: {
      "!('a' in self.val)": 4,
      "'b' in self.val": 3,
      '!has(self.val.a)': 3,
      'has(self.val.b)': 2,
      'self.val.all(k, self.val[k] > 0)': 17,
      '!self.val.exists(k, self.val[k] == 3)': 20,
      'self.val.exists_one(k, self.val[k] == 2)': 14,
      '!self.val.exists_one(k, self.val[k] > 0)': 17,
      'size(self.val) == 2': 4,
      'size(self.val.filter(k, self.val[k] > 1)) == 1': 26,
    },
  },
  {
    name: 'listMap access',
    schema: obj({ listMap: listMap(obj({ k: STR, v: STR, v2: STR })) }),
    obj: {
      listMap: [
        { k: 'a1', v: 'b1' },
        { k: 'a2', v: 'b2' },
        { k: 'a3', v: 'b3', v2: 'z' },
      ],
    },
    costs: {
      'has(self.listMap[0].v)': 3,
      "self.listMap.all(m, m.k.startsWith('a'))": 21,
      "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')": 21,
      "self.listMap.exists(m, m.k.endsWith('1'))": 13,
      "self.listMap.exists_one(m, m.k == 'a3')": 15,
      "!self.listMap.all(m, m.k.endsWith('1'))": 18,
      "!self.listMap.exists(m, m.v == 'x')": 25,
      "!self.listMap.exists_one(m, m.k.startsWith('a'))": 20,
      "size(self.listMap.filter(m, m.k == 'a1')) == 1": 27,
      "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')": 16,
      "self.listMap.map(m, m.v).exists(v, v == 'b1')": 55,
      "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')": 21,
      "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')": 10,
      "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')": 12,
      "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1": 24,
    },
  },
  {
    name: 'list access',
    schema: obj({ array: list(INT) }),
    obj: { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    costs: {
      '2 in self.array': 10,
      'self.array.all(e, e > 0)': 43,
      'self.array.exists(e, e > 2)': 36,
      'self.array.exists_one(e, e > 4)': 22,
      '!self.array.all(e, e < 2)': 21,
      '!self.array.exists(e, e < 0)': 52,
      '!self.array.exists_one(e, e == 2)': 25,
      'self.array.all(e, e < 100)': 43,
      'size(self.array.filter(e, e%2 == 0)) == 3': 68,
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)': 194,
      'size(self.array) == 8': 4,
    },
  },
  {
    name: 'typemeta and objectmeta access',
    schema: obj({ spec: obj({ field1: STR }) }),
    obj: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', generateName: 'pickItForMe' },
      spec: { field1: 'a' },
    },
    root: true,
    costs: {
      "self.kind == 'Pod'": 3,
      "self.apiVersion == 'v1'": 3,
      "self.metadata.name == 'foo'": 4,
      "self.metadata.generateName == 'pickItForMe'": 5,
      "self.spec.field1 == 'a'": 4,
    },
  },
]

describe("runtime cost against kube's cost-stability cases", () => {
  const rows = CASES.flatMap((c) => Object.entries(c.costs).map(([expr, kube]) => ({ ...c, expr, kube })))
  it.each(rows)('$name: $expr', ({ expr, kube, schema, obj: o, root }) => {
    const r = cost(expr, schema, o, root)
    // Every case of kube's table evaluates to true.
    expect(r.value).toBe(true)
    // The metering approximates cel-go's (see cel-cost.ts): within 2 units, or 10 % on the larger loops.
    expect(Math.abs(r.cost - kube)).toBeLessThanOrEqual(Math.max(2, Math.ceil(kube * 0.1)))
  })

  it('most cases agree exactly', () => {
    const rows = CASES.flatMap((c) => Object.entries(c.costs).map(([expr, kube]) => ({ ...c, expr, kube })))
    const exact = rows.filter((r) => cost(r.expr, r.schema, r.obj, r.root).cost === r.kube).length
    expect(exact / rows.length).toBeGreaterThan(0.7)
  })
})

const big = (n: number, c = 'a') => c.repeat(n)
const spec = (props: Record<string, JSONSchemaProps>, rules: object[]): JSONSchemaProps =>
  obj({
    spec: {
      type: 'object',
      properties: props,
      'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'],
    },
  })
const validate = (s: JSONSchemaProps, o: unknown) =>
  ruleValidator(newStructural(s))!.validate(o, null).map(renderFieldError)

describe("kube's runtime limits", () => {
  it("a rule past the per-call limit (1,000,000) stops all validation with kube's error", () => {
    // contains costs ceil(len(s)/10) * ceil(len(t)/10): 1002 * 1002 > 1,000,000.
    const s = spec({ s: STR, t: STR, n: INT }, [{ rule: 'self.s.contains(self.t)' }, { rule: 'self.n > 5' }])
    expect(validate(s, { spec: { s: big(10_010), t: big(10_010, 'b'), n: 1 } })).toEqual([
      'spec: Invalid value: "object": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.s.contains(self.t)',
    ])
    // Just under the limit the rule runs and the next rule is judged too.
    expect(validate(s, { spec: { s: big(9_990), t: big(9_990, 'b'), n: 1 } })).toEqual([
      'spec: Invalid value: "object": failed rule: self.s.contains(self.t)',
      'spec: Invalid value: "object": failed rule: self.n > 5',
    ])
  })

  it('a loop is cancelled once it passes the limit, whatever its result would have been', () => {
    const s = spec({ l: list(INT) }, [{ rule: 'self.l.all(x, self.l.all(y, x == y || x != y))', message: 'm' }])
    const l = Array.from({ length: 1000 }, (_, i) => i)
    const t = Date.now()
    expect(validate(s, { spec: { l } })).toEqual([
      'spec: Invalid value: "object": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: m',
    ])
    // Cancelled early, not after the million iterations.
    expect(Date.now() - t).toBeLessThan(5000)
    expect(validate(s, { spec: { l: l.slice(0, 100) } })).toEqual([])
  })

  it("the rules of one write share a budget of 10,000,000: past it, kube's error and no further rules", () => {
    // Each item's rule costs 901 * 901 + 8 = 811,809: twelve fit, the thirteenth does not.
    const item = obj({ s: STR, t: STR })
    item['x-kubernetes-validations'] = [{ rule: 'self.s.contains(self.t)', message: 'no' }]
    const s = spec({ items: list(item), n: INT }, [{ rule: 'self.n > 0' }])
    const items = Array.from({ length: 20 }, () => ({ s: big(9_001), t: big(9_001) }))
    const errs = validate(s, { spec: { n: 1, items } })
    expect(errs).toEqual([
      'spec.items[12]: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ])
  })

  it('a messageExpression past the limit is reported as kube reports it', () => {
    const s = spec({ s: STR, t: STR }, [{ rule: 'false', messageExpression: "self.s.contains(self.t) ? 'a' : 'b'" }])
    expect(validate(s, { spec: { s: big(10_010), t: big(10_010) } })).toEqual([
      'spec: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: "self.s.contains(self.t) ? \'a\' : \'b\'"',
    ])
  })
})
