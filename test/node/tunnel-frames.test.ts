// The tunnel's framing: frames round-trip, bad messages are ignored, and a credit window holds back what the peer has
// not granted (splitting a payload at the credit's edge), releasing it as credit returns.
import { describe, expect, it } from 'vitest'
import {
  creditFrame,
  creditOf,
  dataFrame,
  decodeFrame,
  encodeFrame,
  FrameType,
  jsonFrame,
  readJson,
  Window,
} from '../../src/node/tunnel-frames'

const bytes = (...xs: number[]) => Uint8Array.from(xs)

describe('frames', () => {
  it('round-trip type, stream id and payload', () => {
    const f = decodeFrame(encodeFrame(FrameType.DATA, 0xfedcba98, bytes(1, 2, 3)))!
    expect(f.type).toBe(FrameType.DATA)
    expect(f.stream).toBe(0xfedcba98)
    expect([...f.payload]).toEqual([1, 2, 3])
    expect(creditOf(decodeFrame(creditFrame(7, 65536))!.payload)).toBe(65536)
    expect(readJson(decodeFrame(jsonFrame(FrameType.OPEN, 1, { op: 'log' }))!.payload)).toEqual({ op: 'log' })
    expect([...decodeFrame(dataFrame(1, 4, bytes(9)))!.payload]).toEqual([4, 9])
  })

  it('ignores what is not a frame', () => {
    expect(decodeFrame(bytes(1, 0, 0))).toBeNull()
    expect(decodeFrame(bytes(0, 0, 0, 0, 1))).toBeNull()
    expect(decodeFrame(bytes(99, 0, 0, 0, 1))).toBeNull()
    expect(readJson(bytes(123))).toBeNull()
  })
})

describe('Window', () => {
  const payload = (channel: number, n: number) => {
    const p = new Uint8Array(n + 1)
    p[0] = channel
    return p
  }
  const sizes = (ps: Uint8Array[]) => ps.map((p) => [p[0], p.length - 1])

  it('sends within the credit, splits at its edge, and releases on grant', () => {
    const w = new Window(10)
    expect(sizes(w.push(payload(1, 6)))).toEqual([[1, 6]])
    expect(w.blocked).toBe(false)
    expect(sizes(w.push(payload(2, 6)))).toEqual([[2, 4]])
    expect(w.blocked).toBe(true)
    expect(w.pending).toBe(3)
    expect(sizes(w.push(payload(1, 5)))).toEqual([])
    expect(w.pending).toBe(9)
    expect(sizes(w.grant(4))).toEqual([
      [2, 2],
      [1, 2],
    ])
    expect(sizes(w.grant(100))).toEqual([[1, 3]])
    expect(w.pending).toBe(0)
    expect(w.blocked).toBe(false)
  })
})
