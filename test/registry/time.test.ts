// Go's time arithmetic for deletion timestamps (src/registry/time.ts addGoSeconds): nanoseconds wrap around int64.
import { describe, expect, it } from 'vitest'
import { addGoSeconds } from '../../src/registry/time'

describe('addGoSeconds', () => {
  const t = Date.UTC(2025, 0, 1)

  it('adds and subtracts whole seconds', () => {
    expect(addGoSeconds(t, 30)).toBe(t + 30_000)
    expect(addGoSeconds(t, 30, true)).toBe(t - 30_000)
    expect(addGoSeconds(t, 0)).toBe(t)
  })

  it('time.Second * time.Duration(2^63-1) is -1 s; negated, +1 s', () => {
    expect(addGoSeconds(t, Number('9223372036854775807'))).toBe(t - 1000)
    expect(addGoSeconds(t, Number('9223372036854775807'), true)).toBe(t + 1000)
  })

  it('a product just past int64 wraps to the far side (about 292 years)', () => {
    // 9223372037 s * 1e9 = 2^63 + 147483648 ns past the limit.
    const wrapped = addGoSeconds(t, 9223372037)
    expect(wrapped).toBeLessThan(t)
    expect(Number.isFinite(new Date(wrapped).getTime())).toBe(true)
  })
})
