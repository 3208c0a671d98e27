// autoscaling/v2 and v1 HorizontalPodAutoscaler protobuf bodies, built field by field from k8s.io/api autoscaling
// generated.proto's numbers (independently of src/api/protobuf/autoscaling-messages.ts) as kubectl's `autoscale`
// writes them: Go's marshaller writes every non-pointer scalar, so a zero of a value field (the status's
// desiredReplicas, an unset apiVersion) arrives and is dropped, while pointer fields keep theirs.
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../src/api/protobuf/decode'
import { envelope, I, M, type Part, S } from './proto-writer'

const meta = (name: string): Part => M(1, S(1, name), S(2, ''), S(3, ''))
const ref = M(1, S(1, 'Deployment'), S(2, 'web'), S(3, 'apps/v1'))

describe('autoscaling protobuf bodies', () => {
  it('an autoscaling/v2 HPA as kubectl 1.33 autoscale sends it', () => {
    const target = M(2, S(1, 'Utilization'), I(4, 80))
    const metric = M(4, S(1, 'Resource'), M(4, S(1, 'cpu'), target))
    const status = M(3, I(4, 0))
    const o = decodeKubeProtobuf(
      envelope('autoscaling/v2', 'HorizontalPodAutoscaler', [meta('web'), M(2, ref, I(2, 2), I(3, 5), metric), status]),
    ).object
    expect(o).toEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
        ],
      },
      status: { desiredReplicas: 0 },
    })
  })

  it('an autoscaling/v1 HPA as kubectl 1.27 autoscale sends it', () => {
    const spec = M(2, M(1, S(1, 'Deployment'), S(2, 'web'), S(3, '')), I(2, 1), I(3, 3), I(4, 50))
    const o = decodeKubeProtobuf(
      envelope('autoscaling/v1', 'HorizontalPodAutoscaler', [meta('web'), spec, M(3, I(3, 0), I(4, 0))]),
    ).object
    expect(o.spec).toEqual({
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 3,
      targetCPUUtilizationPercentage: 50,
    })
    expect(o.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 })
  })
})
