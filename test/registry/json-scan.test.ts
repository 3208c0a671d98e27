// The duplicate-key scan every JSON body goes through (JSON.parse keeps the last of two equal keys silently).
import { describe, expect, it } from 'vitest'
import { duplicateFields } from '../../src/registry/json-scan'

describe('duplicateFields', () => {
  it('finds duplicated keys at any depth and names them as field paths', () => {
    const text =
      '{"metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"c","image":"x","image":"y"}]},"spec":{}}'
    expect(duplicateFields(text)).toEqual(['metadata.name', 'spec.containers[0].image', 'spec'])
  })

  it('compares keys by their decoded value', () => {
    expect(duplicateFields('{"a":1,"\\u0061":2}')).toEqual(['a'])
    expect(duplicateFields('{"a\\"b":1,"a\\u0022b":2,"ab":3}')).toEqual(['a"b'])
  })

  it('is not fooled by quotes, brackets or backslashes inside strings, nor by whitespace', () => {
    const text =
      ' {\n\t"k" : "v\\\\" ,\r\n "x":"}{][\\"", "list" : [ "a" , { "k":1 , "j":2 } , [ ] , { } ], "n":-1.5e3,"t":true,"z":null }'
    expect(JSON.parse(text)).toBeTruthy()
    expect(duplicateFields(text)).toEqual([])
    expect(duplicateFields(text.replace('"j":2', '"k":2'))).toEqual(['list[1].k'])
  })

  it('answers nothing for scalars and empty containers', () => {
    for (const t of ['1', '"s"', 'null', '[]', '{}', '[{}, []]']) expect(duplicateFields(t)).toEqual([])
  })

  it('scans text nested as deep as Go decodes (10000 levels) without recursion', () => {
    const deep = (n: number) => `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`
    expect(duplicateFields(deep(10000))).toEqual([])
    const dup = `${'['.repeat(9998)}{"k":1,"k":2}${']'.repeat(9998)}`
    expect(duplicateFields(dup)).toEqual([`${'[0]'.repeat(9998)}.k`])
  })
})
