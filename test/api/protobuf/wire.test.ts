// The protobuf wire reader: varint edge cases, 64-bit signedness, fixed widths, bounds, tags and skipping.
import { describe, expect, it } from 'vitest'
import { WIRE_FIXED32, WIRE_FIXED64, WIRE_LEN, WIRE_VARINT, WireReader } from '../../../src/api/protobuf/wire'

const r = (...bytes: number[]) => new WireReader(Uint8Array.from(bytes))

/** A varint the way Go writes it: negative numbers as their 64-bit two's complement (10 bytes). */
function varint(v: number | bigint): number[] {
  let x = BigInt.asUintN(64, BigInt(v))
  const out: number[] = []
  do {
    let b = Number(x & 0x7fn)
    x >>= 7n
    if (x) b |= 0x80
    out.push(b)
  } while (x)
  return out
}

describe('varints', () => {
  it.each([
    [[0x00], 0],
    [[0x01], 1],
    [[0x7f], 127],
    [[0x80, 0x01], 128],
    [[0xac, 0x02], 300],
    [[0xff, 0xff, 0xff, 0xff, 0x0f], 2 ** 32 - 1],
    [[0x80, 0x80, 0x80, 0x80, 0x10], 2 ** 32],
    [varint(2 ** 53 - 1), 2 ** 53 - 1],
  ])('%j reads as %d', (bytes, value) => {
    const reader = r(...bytes)
    expect(reader.uint()).toBe(value)
    expect(reader.done).toBe(true)
  })

  it('a redundant but valid long encoding of a small number is accepted', () => {
    expect(r(0x81, 0x80, 0x80, 0x00).uint()).toBe(1)
  })

  it('uint refuses values JavaScript cannot represent exactly', () => {
    expect(() => r(...varint(2n ** 53n)).uint()).toThrow(/exceeds 2\^53/)
    expect(() => r(...varint(2n ** 64n - 1n)).uint()).toThrow(/exceeds 2\^53/)
  })

  it('int64 reads two-complement negatives from 10-byte varints', () => {
    expect(varint(-1)).toHaveLength(10)
    expect(r(...varint(-1)).int64()).toBe(-1)
    expect(r(...varint(-62135596800)).int64()).toBe(-62135596800)
    expect(r(...varint(-(2 ** 53 - 1))).int64()).toBe(-(2 ** 53 - 1))
    expect(r(...varint(2 ** 40 + 5)).int64()).toBe(2 ** 40 + 5)
    expect(() => r(...varint(-(2n ** 63n))).int64()).toThrow(/safe integer/)
    expect(() => r(...varint(2n ** 62n)).int64()).toThrow(/safe integer/)
  })

  it('int32 keeps the low 32 bits with their sign, as Go does', () => {
    expect(r(...varint(-1)).int32()).toBe(-1)
    expect(r(...varint(-2147483648)).int32()).toBe(-2147483648)
    expect(r(...varint(2147483647)).int32()).toBe(2147483647)
    expect(r(...varint(2 ** 32 + 7)).int32()).toBe(7)
  })

  it('bool is any non-zero varint', () => {
    expect(r(0x00).bool()).toBe(false)
    expect(r(0x01).bool()).toBe(true)
    expect(r(0x80, 0x80, 0x80, 0x80, 0x80, 0x01).bool()).toBe(true) // only high bits set
  })

  it('truncated varints fail', () => {
    expect(() => r().uint()).toThrow(/truncated varint at byte 0/)
    expect(() => r(0x80).uint()).toThrow(/truncated varint/)
    expect(() => r(0xff, 0xff, 0xff).int64()).toThrow(/truncated varint/)
  })

  it('over-long varints fail', () => {
    expect(() => r(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02).u64()).toThrow(/overflows 64 bits/)
    expect(() => r(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00).u64()).toThrow(
      /longer than 10 bytes/,
    )
  })

  it('a varint may not run past the end of its enclosing message', () => {
    const outer = r(0x02, 0x80, 0x80, 0x01) // length 2, then a varint whose last byte lies outside
    const inner = outer.sub()
    expect(() => inner.uint()).toThrow(/truncated varint/)
  })
})

describe('fixed widths', () => {
  it('reads little-endian fixed32 and fixed64', () => {
    expect(r(0x01, 0x00, 0x00, 0x80).fixed32()).toBe(0x80000001)
    expect(r(1, 0, 0, 0, 2, 0, 0, 0).fixed64()).toEqual({ lo: 1, hi: 2 })
  })

  it('fails on truncation', () => {
    expect(() => r(1, 2, 3).fixed32()).toThrow(/truncated fixed32/)
    expect(() => r(1, 2, 3, 4, 5).fixed64()).toThrow(/truncated fixed32/)
  })
})

describe('length-delimited values', () => {
  it('bytes returns a view of exactly the declared length', () => {
    const reader = r(0x03, 0x61, 0x62, 0x63, 0x09)
    expect(Array.from(reader.bytes())).toEqual([0x61, 0x62, 0x63])
    expect(reader.uint()).toBe(9)
  })

  it('a zero length is an empty value', () => {
    expect(r(0x00).bytes()).toHaveLength(0)
  })

  it('a length beyond the bytes left fails, also inside a nested message', () => {
    expect(() => r(0x05, 0x61).bytes()).toThrow(/length 5 exceeds the 1 bytes left/)
    const outer = r(0x02, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65)
    expect(() => outer.sub().bytes()).toThrow(/length 5 exceeds the 1 bytes left/)
  })

  it('sub reads only its own span and advances the parent past it', () => {
    const outer = r(0x02, 0x08, 0x2a, 0x10, 0x07)
    const inner = outer.sub()
    expect(inner.tag()).toEqual({ field: 1, wire: WIRE_VARINT })
    expect(inner.uint()).toBe(42)
    expect(inner.done).toBe(true)
    expect(outer.tag()).toEqual({ field: 2, wire: WIRE_VARINT })
    expect(outer.uint()).toBe(7)
  })
})

describe('tags and skipping', () => {
  it('splits field number and wire type', () => {
    expect(r(0x0a).tag()).toEqual({ field: 1, wire: WIRE_LEN })
    expect(r(...varint(17 * 8 + 2)).tag()).toEqual({ field: 17, wire: WIRE_LEN })
    expect(r(...varint(536870911 * 8)).tag()).toEqual({ field: 536870911, wire: WIRE_VARINT })
  })

  it('rejects field number 0 and numbers above 2^29-1', () => {
    expect(() => r(0x02).tag()).toThrow(/invalid field number 0/)
    expect(() => r(...varint(536870912 * 8)).tag()).toThrow(/invalid field number/)
  })

  it('skips every wire type Kubernetes can send, leaving the reader on the next tag', () => {
    const reader = r(0x96, 0x01, /**/ 1, 2, 3, 4, 5, 6, 7, 8, /**/ 0x02, 0x61, 0x62, /**/ 1, 2, 3, 4, /**/ 0x08)
    reader.skip(WIRE_VARINT)
    reader.skip(WIRE_FIXED64)
    reader.skip(WIRE_LEN)
    reader.skip(WIRE_FIXED32)
    expect(reader.tag()).toEqual({ field: 1, wire: WIRE_VARINT })
  })

  it('refuses groups and undefined wire types', () => {
    expect(() => r(0x00).skip(3)).toThrow(/unsupported wire type 3/)
    expect(() => r(0x00).skip(4)).toThrow(/unsupported wire type 4/)
    expect(() => r(0x00).skip(7)).toThrow(/unsupported wire type 7/)
  })

  it('skipping a truncated value fails rather than running off the end', () => {
    expect(() => r(0x05, 0x00).skip(WIRE_LEN)).toThrow(/exceeds/)
    expect(() => r(0x80).skip(WIRE_VARINT)).toThrow(/truncated/)
  })
})
