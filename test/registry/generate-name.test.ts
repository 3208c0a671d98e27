// generateName: SimpleNameGenerator's truncation and alphabet, with the random source pinned where it matters.
import { describe, expect, it } from 'vitest'
import { GENERATED_NAME_ALPHABET, MAX_GENERATED_NAME_LENGTH, generateName } from '../../src/registry/generate-name'
import { nameIsDNS1035Label, nameIsDNSLabel } from '../../src/registry/validation/names'

/** A random source that replays the given alphabet indexes. */
const indexes = (...ix: number[]) => {
  let i = 0
  return () => (ix[i++ % ix.length] + 0.5) / GENERATED_NAME_ALPHABET.length
}

describe('generateName', () => {
  it("uses kube's alphabet and lengths", () => {
    expect(GENERATED_NAME_ALPHABET).toBe('bcdfghjklmnpqrstvwxz2456789')
    expect(MAX_GENERATED_NAME_LENGTH).toBe(58)
  })

  it.each([
    ['web-', () => 0, 'web-bbbbb'],
    ['web-', () => 0.999999, 'web-99999'],
    ['web-', indexes(0, 1, 2, 3, 4), 'web-bcdfg'],
    ['', indexes(22, 23, 24, 25, 26), '56789'],
    // A source that strays to 1 must not index past the alphabet.
    ['x-', () => 1, 'x-99999'],
  ])('%j', (base, random, expected) => {
    expect(generateName(base, random)).toBe(expected)
  })

  it('truncates the base to 58 characters', () => {
    const base = 'a'.repeat(100)
    const name = generateName(base, () => 0)
    expect(name).toBe(`${'a'.repeat(58)}bbbbb`)
    expect(name).toHaveLength(63)
    expect(generateName('b'.repeat(58), () => 0)).toBe(`${'b'.repeat(58)}bbbbb`)
  })

  it('draws from crypto by default and yields valid names', () => {
    const names = new Set<string>()
    for (let i = 0; i < 1000; i++) {
      const name = generateName('web-')
      expect(name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
      expect(nameIsDNS1035Label(name, false)).toEqual([])
      names.add(name)
    }
    // 27^5 ≈ 14.3M possibilities: a thousand draws should almost never collide.
    expect(names.size).toBeGreaterThan(995)
  })

  it('turns any masked-valid label prefix into a valid name', () => {
    const base = `${'a'.repeat(70)}-`
    expect(nameIsDNSLabel(base, true)).toEqual(['must be no more than 63 characters'])
    expect(nameIsDNSLabel(generateName(base), false)).toEqual([])
  })
})
