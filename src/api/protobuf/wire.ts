// The protobuf wire format, read side only: varints, fixed32/64, length-delimited slices, tags, skipping.
// Kubernetes' gogo-generated types use nothing else (no groups, no zigzag); every error is a plain Error.

export const WIRE_VARINT = 0
export const WIRE_FIXED64 = 1
export const WIRE_LEN = 2
export const WIRE_FIXED32 = 5

/** A varint split into its low and high 32 bits (both unsigned), so 64-bit values survive without BigInt. */
interface U64 {
  lo: number
  hi: number
}

const TWO_32 = 0x1_0000_0000

/** Reads one protobuf message's bytes front to back; `end` bounds a nested message inside a larger buffer. */
export class WireReader {
  pos: number

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start
  }

  get done(): boolean {
    return this.pos >= this.end
  }

  private fail(what: string): never {
    throw new Error(`protobuf: ${what} at byte ${this.pos}`)
  }

  /** A raw varint of up to 10 bytes. Anything longer, or a 10th byte above 1, cannot be a 64-bit value. */
  u64(): U64 {
    let lo = 0
    let hi = 0
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('truncated varint')
      const b = this.buf[this.pos++]!
      const v = b & 0x7f
      if (i < 4) lo |= v << (7 * i)
      else if (i === 4) {
        lo |= (v & 0x0f) << 28 // bits 28..31
        hi |= v >>> 4 // bits 32..34
      } else hi |= v << (7 * i - 32) // JS keeps the low 32 bits, which is exactly what a 64-bit value has room for
      if (b < 0x80) {
        if (i === 9 && b > 1) this.fail('varint overflows 64 bits')
        return { lo: lo >>> 0, hi: hi >>> 0 }
      }
    }
    return this.fail('varint longer than 10 bytes')
  }

  /** An unsigned varint as a number; refuses values JavaScript cannot hold exactly (lengths, tags, uint64). */
  uint(): number {
    const { lo, hi } = this.u64()
    if (hi >= 0x20_0000) this.fail('varint exceeds 2^53')
    return hi * TWO_32 + lo
  }

  /** int64 (two's complement in 10 bytes when negative); values beyond ±2^53 are refused, not rounded. */
  int64(): number {
    const { lo, hi } = this.u64()
    const neg = hi >= 0x8000_0000
    const value = neg ? -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1) : hi * TWO_32 + lo
    if (!Number.isSafeInteger(value)) this.fail('int64 outside the safe integer range')
    return value
  }

  /** int32: Go truncates the 64-bit varint to its low 32 bits, sign included. */
  int32(): number {
    return this.u64().lo | 0
  }

  bool(): boolean {
    const { lo, hi } = this.u64()
    return (lo | hi) !== 0
  }

  fixed32(): number {
    if (this.end - this.pos < 4) this.fail('truncated fixed32')
    const b = this.buf
    const p = this.pos
    this.pos += 4
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0
  }

  fixed64(): U64 {
    const lo = this.fixed32()
    return { lo, hi: this.fixed32() }
  }

  /** A length prefix, checked against the bytes that remain. */
  private len(): number {
    const n = this.uint()
    if (n > this.end - this.pos) this.fail(`length ${n} exceeds the ${this.end - this.pos} bytes left`)
    return n
  }

  /** The payload of a length-delimited field, as a view into the same buffer (no copy). */
  bytes(): Uint8Array {
    const n = this.len()
    this.pos += n
    return this.buf.subarray(this.pos - n, this.pos)
  }

  /** A reader over the next length-delimited payload, for nested messages. */
  sub(): WireReader {
    const n = this.len()
    this.pos += n
    return new WireReader(this.buf, this.pos - n, this.pos)
  }

  /** The next field's number and wire type. */
  tag(): { field: number; wire: number } {
    const t = this.uint()
    const field = Math.floor(t / 8)
    if (field < 1 || field > 0x1fff_ffff) this.fail(`invalid field number ${field}`)
    return { field, wire: t & 7 }
  }

  /** Steps over a field's value; groups (wire types 3 and 4) are not used by Kubernetes and are rejected. */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.u64()
        return
      case WIRE_FIXED64:
        this.fixed64()
        return
      case WIRE_LEN:
        this.bytes()
        return
      case WIRE_FIXED32:
        this.fixed32()
        return
      default:
        this.fail(`unsupported wire type ${wire}`)
    }
  }
}
