// The pod-template-hash: FNV-1a 32 over the canonical template, the collision count's 8 little-endian bytes when set,
// and SafeEncodeString of the decimal sum (digits map to 4-9, b, c, d, f, as in kube's hashes like 7c79c4bf97).
import { describe, expect, it } from 'vitest'
import { canonicalJson, computeHash } from '../../src/registry/pod-template-hash'

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }

describe('pod-template-hash', () => {
  it('is the safe encoding of a decimal uint32', () => {
    expect(computeHash(template)).toMatch(/^[4-9bcdf]{1,10}$/)
  })

  it('depends on the template, not on key order or empty values', () => {
    const reordered = { spec: { containers: [{ image: 'nginx', name: 'c' }] }, metadata: { labels: { app: 'web' } } }
    const withEmpties = {
      ...template,
      spec: { ...template.spec, volumes: [] },
      metadata: { ...template.metadata, annotations: {} },
    }
    expect(computeHash(reordered)).toBe(computeHash(template))
    expect(computeHash(withEmpties)).toBe(computeHash(template))
    expect(computeHash({ ...template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } })).not.toBe(
      computeHash(template),
    )
  })

  it('changes with the collision count, and count 0 differs from none', () => {
    const hashes = new Set([computeHash(template), computeHash(template, 0), computeHash(template, 1)])
    expect(hashes.size).toBe(3)
  })

  it('canonical JSON sorts keys and drops empty maps and lists', () => {
    expect(canonicalJson({ b: 1, a: { d: [], c: {} }, e: [1, {}] })).toBe('{"b":1,"e":[1,{}]}')
  })
})
