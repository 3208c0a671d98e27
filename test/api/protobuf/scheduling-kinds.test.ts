// scheduling.k8s.io/v1 PriorityClass protobuf bodies, built field by field from k8s.io/api scheduling/v1
// generated.proto's numbers (independently of src/api/protobuf/scheduling-messages.ts) as kubectl 1.33's
// `create priorityclass` writes them: Go's marshaller writes every non-pointer scalar, so a false globalDefault and
// an empty description arrive and are dropped; value is kept even when 0, and so is the pointer preemptionPolicy.
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../src/api/protobuf/decode'
import { envelope, I, M, type Part, S } from './proto-writer'

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
