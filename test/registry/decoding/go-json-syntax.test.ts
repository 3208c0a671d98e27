// Go's encoding/json syntax errors (scanner.go), message for message: what kube quotes after "json parse error:".
import { describe, expect, it } from 'vitest'
import { goJsonSyntaxError } from '../../../src/registry/decoding/go-json-syntax'

const check = (text: string) => goJsonSyntaxError(new TextEncoder().encode(text))

const CASES: [text: string, message: string | null][] = [
  ['', 'unexpected end of JSON input'],
  ['   ', 'unexpected end of JSON input'],
  ['{', 'unexpected end of JSON input'],
  ['{"metadata":', 'unexpected end of JSON input'],
  ['{"a":"b', 'unexpected end of JSON input'],
  ['[1,2', 'unexpected end of JSON input'],
  ['not json', "invalid character 'o' in literal null (expecting 'u')"],
  ['x', "invalid character 'x' looking for beginning of value"],
  ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
  ['[1 2]', "invalid character '2' after array element"],
  ['[1,]', "invalid character ']' looking for beginning of value"],
  ['{}}', "invalid character '}' after top-level value"],
  ['{} x', "invalid character 'x' after top-level value"],
  ['{"a":01}', "invalid character '1' after object key:value pair"],
  ['{"a":-}', "invalid character '}' in numeric literal"],
  ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
  ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
  ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
  ['{"a":fals', "invalid character ' ' in literal false (expecting 'e')"],
  ['1.', "invalid character ' ' after decimal point in numeric literal"],
  ['-', "invalid character ' ' in numeric literal"],
  ['{"a":"\\x"}', "invalid character 'x' in string escape code"],
  ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
  ['{"a":"tab\there"}', "invalid character '\\t' in string literal"],
  ['\uFEFF{}', "invalid character 'ï' looking for beginning of value"],
  ['{"a":NaN}', "invalid character 'N' looking for beginning of value"],
  ['{"a":1}', null],
  ['  [1, {"b": [true, false, null]}, "s\\u00e9"] ', null],
]

describe("Go's JSON syntax errors", () => {
  it.each(CASES)('%j', (text, message) => {
    expect(check(text)).toBe(message)
  })

  it('refuses nesting past 10000 levels as Go does', () => {
    expect(check('['.repeat(10001) + ']'.repeat(10001))).toBe("invalid character '[' exceeded max depth")
    expect(check('['.repeat(10000) + ']'.repeat(10000))).toBeNull()
  })
})
