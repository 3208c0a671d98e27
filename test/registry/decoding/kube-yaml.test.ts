// YAML read as kube reads it (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1): src/registry/decoding/kube-yaml.ts.
import { describe, expect, it } from 'vitest'
import { parseKubeYaml } from '../../../src/registry/decoding/kube-yaml'
import { RawNumber } from '../../../src/registry/decoding/go-json-numbers'

const value = (scalar: string) => {
  const r = parseKubeYaml(`v: ${scalar}`)
  if ('error' in r) throw new Error(r.error)
  return (r.value as { v: unknown }).v
}

describe('plain scalars resolve as go-yaml v2 resolves them', () => {
  it.each([
    ['yes', true],
    ['Yes', true],
    ['ON', true],
    ['y', true],
    ['n', false],
    ['off', false],
    ['No', false],
    ['true', true],
    ['~', null],
    ['Null', null],
    ['', null],
    ['0644', 420],
    ['+0644', 420],
    ['0o17', 15],
    ['0x1F', 31],
    ['-0x1F', -31],
    ['0b101', 5],
    ['1_000', 1000],
    ['08', 8],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['-.5e1', -5],
    ['1e3', 1000],
  ])('%j is %j', (scalar, expected) => {
    expect(value(scalar)).toBe(expected)
  })

  it.each([
    ['22:22'],
    ['190:20:30'],
    ['2001-12-14'],
    ['2001-12-14T21:59:43.10-05:00'],
    ['yEs'],
    ['nULL'],
    ['0x'],
    ['1e400'],
    ['.'],
    ['-x'],
    ['+'],
    ['0o8'],
  ])('%j stays a string', (scalar) => {
    expect(value(scalar)).toBe(scalar)
  })

  it('quoted scalars are strings', () => {
    expect(value('"yes"')).toBe('yes')
    expect(value("'0644'")).toBe('0644')
  })

  it('an int past 2^53 keeps its digits; past uint64 it is a float', () => {
    const big = value('9223372036854775807')
    expect(big).toBeInstanceOf(RawNumber)
    expect((big as RawNumber).source).toBe('9223372036854775807')
    expect((value('18446744073709551615') as RawNumber).source).toBe('18446744073709551615')
    expect(value('99999999999999999999')).toBe(1e20)
  })

  it('.inf and .nan cannot be written as JSON: the conversion fails as encoding/json fails', () => {
    expect(parseKubeYaml('v: .inf')).toEqual({ error: 'error converting YAML to JSON: json: unsupported value: +Inf' })
    expect(parseKubeYaml('v: .nan')).toEqual({ error: 'error converting YAML to JSON: json: unsupported value: NaN' })
  })
})

describe('maps', () => {
  it('keys become the strings YAMLToJSON writes', () => {
    const r = parseKubeYaml('yes: a\n0644: b\n1.5: c\n1234567.0: d\n"no": e\n')
    expect(r).toEqual({ value: { true: 'a', 420: 'b', '1.5': 'c', '1.234567e+06': 'd', no: 'e' } })
  })

  it('<< merges the anchored map, keys of the map itself winning', () => {
    const r = parseKubeYaml('base: &b {a: 1, c: 2}\nm:\n  <<: *b\n  c: 3\n')
    expect(r).toEqual({ value: { base: { a: 1, c: 2 }, m: { a: 1, c: 3 } } })
  })

  it('syntax errors are worded as kube words them', () => {
    const r = parseKubeYaml('a: [b')
    expect('error' in r && r.error.startsWith('error converting YAML to JSON: yaml: ')).toBe(true)
  })
})
