// FieldsV1 text as structured-merge-diff's fieldpath/serialize.go writes it: "." first, then children in PathElement
// order (names, keys, values, indexes), keys field by field with numbers compared as numbers.
import { describe, expect, it } from 'vitest'
import { fromFieldsV1, toFieldsV1 } from '../../../src/registry/managed-fields/fields-v1'

const set = (...paths: string[][]) => new Set(paths.map((p) => p.join('\u0001')))

describe('toFieldsV1', () => {
  it('puts "." first and orders names byte-wise, then keys, values and indexes', () => {
    const s = set(
      ['f:metadata', 'f:labels'],
      ['f:metadata', 'f:labels', 'f:z'],
      ['f:metadata', 'f:labels', 'f:Z'],
      ['f:list', 'i:10'],
      ['f:list', 'i:2'],
      ['f:list', 'v:"b"'],
      ['f:list', 'v:3'],
      ['f:list', 'k:{"port":443}'],
      ['f:list', 'k:{"port":80}'],
      ['f:list', 'f:x'],
    )
    expect(JSON.stringify(toFieldsV1(s))).toBe(
      '{"f:list":{"f:x":{},"k:{\\"port\\":80}":{},"k:{\\"port\\":443}":{},"v:3":{},"v:\\"b\\"":{},"i:2":{},"i:10":{}},' +
        '"f:metadata":{"f:labels":{".":{},"f:Z":{},"f:z":{}}}}',
    )
  })

  it('compares keys field by field: a shorter key list first, then names, then values', () => {
    const s = set(['k:{"b":1}'], ['k:{"a":2,"b":1}'], ['k:{"a":2}'], ['k:{"a":"x"}'])
    expect(Object.keys(toFieldsV1(s))).toEqual(['k:{"a":2}', 'k:{"a":2,"b":1}', 'k:{"a":"x"}', 'k:{"b":1}'])
  })

  it('reads back what it writes', () => {
    const s = set(['f:a'], ['f:a', 'f:b'], ['f:c', 'k:{"name":"x"}'], ['f:c', 'k:{"name":"x"}', 'f:name'])
    expect(fromFieldsV1(toFieldsV1(s))).toEqual(s)
  })
})
