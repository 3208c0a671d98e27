// scheduling.k8s.io/v1 PriorityClass protobuf bodies, built field by field from k8s.io/api scheduling/v1
// generated.proto's numbers (independently of src/api/protobuf/scheduling-messages.ts) as kubectl 1.33's
// `create priorityclass` writes them: Go's marshaller writes every non-pointer scalar, so a false globalDefault and
// an empty description arrive and are dropped; value is kept even when 0, and so is the pointer preemptionPolicy.
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../src/api/protobuf/decode'

type Part = number[]
const utf8 = new TextEncoder()
const varint = (v: number): number[] => {
  const out: number[] = []
  let x = v
  do {
    let b = x & 0x7f
    x = Math.floor(x / 128)
    if (x) b |= 0x80
    out.push(b)
  } while (x)
  return out
}
const tag = (n: number, wire: number) => varint(n * 8 + wire)
const len = (n: number, b: number[]): Part => [...tag(n, 2), ...varint(b.length), ...b]
const I = (n: number, v: number | boolean): Part => [...tag(n, 0), ...varint(typeof v === 'boolean' ? Number(v) : v)]
const S = (n: number, s: string): Part => len(n, [...utf8.encode(s)])
const M = (n: number, ...parts: Part[]): Part => len(n, parts.flat())
const envelope = (apiVersion: string, kind: string, body: Part[]) =>
  Uint8Array.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...M(1, S(1, apiVersion), S(2, kind)),
    ...M(2, ...body),
    ...S(3, ''),
    ...S(4, ''),
  ])
const meta = (name: string): Part => M(1, S(1, name), S(2, ''), S(3, ''), S(4, ''), S(5, ''), S(6, ''), I(7, 0), M(8))

describe('scheduling.k8s.io/v1 protobuf bodies', () => {
  it('a PriorityClass as kubectl create priorityclass sends it', () => {
    const full = decodeKubeProtobuf(
      envelope('scheduling.k8s.io/v1', 'PriorityClass', [
        meta('high'),
        I(2, 1000),
        I(3, true),
        S(4, 'important'),
        S(5, 'Never'),
      ]),
    ).object
    expect(full).toEqual({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000,
      globalDefault: true,
      description: 'important',
      preemptionPolicy: 'Never',
    })
    const sparse = decodeKubeProtobuf(
      envelope('scheduling.k8s.io/v1', 'PriorityClass', [
        meta('zero'),
        I(2, 0),
        I(3, false),
        S(4, ''),
        S(5, 'PreemptLowerPriority'),
      ]),
    ).object
    expect(sparse).toEqual({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'zero' },
      value: 0,
      preemptionPolicy: 'PreemptLowerPriority',
    })
  })
})
