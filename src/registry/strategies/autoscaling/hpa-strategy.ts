// The HorizontalPodAutoscaler strategy (kube's pkg/registry/autoscaling/horizontalpodautoscaler, release-1.33) over
// the stored autoscaling/v2 object: v2's scheme defaults (minReplicas 1, an 80% CPU target when no metric is given,
// every unset field of a given behavior direction), status reset on create and kept on update, the tolerance fields
// dropped (the HPAConfigurableTolerance gate is alpha, off, in 1.33) unless already in use, and kube's validation.
import type { HorizontalPodAutoscaler } from '../../../schema/autoscaling-v2'
import type { ObjectMeta } from '../../../schema/meta'
import type { Strategy } from '../../strategy'
import { nameIsDNSSubdomain } from '../../validation/names'
import { hpaTable } from './hpa-table'
import { validateHpaSpec, validateHpaStatus } from './hpa-validation'

export type HpaObject = Omit<HorizontalPodAutoscaler, 'metadata'> & { metadata: ObjectMeta }
type Behavior = NonNullable<NonNullable<HpaObject['spec']>['behavior']>
type Rules = NonNullable<Behavior['scaleUp']>

/** autoscaling.DefaultCPUUtilization: the target when no metric is given. */
const DEFAULT_CPU_UTILIZATION = 80

/** The scaling rules kube fills a given direction's unset fields from (autoscaling/v2 defaults.go). */
const SCALE_UP: Rules = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
}
/** Scale-down's window stays unset: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies. */
const SCALE_DOWN: Rules = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] }

/** copyHPAScalingRules over a copy of the defaults: what the rules set wins. */
function withDefaults(rules: Rules | undefined, defaults: Rules): Rules {
  const out: Rules = structuredClone(defaults)
  if (!rules) return out
  if (rules.selectPolicy !== undefined) out.selectPolicy = rules.selectPolicy
  if (rules.stabilizationWindowSeconds !== undefined) out.stabilizationWindowSeconds = rules.stabilizationWindowSeconds
  if (rules.policies !== undefined) out.policies = rules.policies
  if (rules.tolerance !== undefined) out.tolerance = rules.tolerance
  // Go's field order.
  return {
    ...(out.stabilizationWindowSeconds !== undefined
      ? { stabilizationWindowSeconds: out.stabilizationWindowSeconds }
      : {}),
    selectPolicy: out.selectPolicy,
    policies: out.policies,
    ...(out.tolerance !== undefined ? { tolerance: out.tolerance } : {}),
  }
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v2). */
export function defaultHpa(hpa: HpaObject) {
  const spec = (hpa.spec ??= { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 })
  spec.minReplicas ??= 1
  if (!spec.metrics?.length)
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
      },
    ]
  if (spec.behavior) {
    spec.behavior.scaleUp = withDefaults(spec.behavior.scaleUp, SCALE_UP)
    spec.behavior.scaleDown = withDefaults(spec.behavior.scaleDown, SCALE_DOWN)
  }
}

const rulesOf = (hpa: HpaObject | null) => [hpa?.spec?.behavior?.scaleUp, hpa?.spec?.behavior?.scaleDown]

/** dropDisabledFields: tolerance only stays where the old object already used it. */
function dropTolerance(hpa: HpaObject, old: HpaObject | null) {
  if (rulesOf(old).some((r) => r?.tolerance !== undefined)) return
  for (const r of rulesOf(hpa)) if (r) delete r.tolerance
}

/** The zero status: Go writes desiredReplicas and a nil currentMetrics (no omitempty on either). */
const emptyStatus = (): NonNullable<HpaObject['status']> => ({ desiredReplicas: 0, currentMetrics: null })

/** The replica lower bound: 0 only for an update of an HPA whose minReplicas already was 0 (HPAScaleToZero is off). */
const minBound = (old: HpaObject | null) => (old?.spec?.minReplicas === 0 ? 0 : 1)

export const hpaStrategy: Strategy<HpaObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: defaultHpa,
  prepareForCreate(hpa) {
    hpa.status = emptyStatus()
    dropTolerance(hpa, null)
  },
  validate: (hpa) => validateHpaSpec(hpa.spec, minBound(null)),
  prepareForUpdate(hpa, old) {
    hpa.status = structuredClone(old.status) ?? emptyStatus()
    dropTolerance(hpa, old)
  },
  validateUpdate: (hpa, old) => validateHpaSpec(hpa.spec, minBound(old)),
  validateStatusUpdate: validateHpaStatus,
  prepareForStatusUpdate(hpa) {
    if (hpa.status && hpa.status.currentMetrics === undefined) hpa.status.currentMetrics = null
  },
  selectableFields: (hpa) => ({
    'metadata.name': hpa.metadata.name ?? '',
    'metadata.namespace': hpa.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: hpaTable as Strategy<HpaObject>['table'],
}
