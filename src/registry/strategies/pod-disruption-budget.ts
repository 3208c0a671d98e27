// The PodDisruptionBudget strategy (policy/v1): kube's ValidatePodDisruptionBudgetSpec (minAvailable and
// maxUnavailable exclusive, ints or percentages up to 100%, the selector, the unhealthy pod eviction policy), the
// status half the disruption controller and evictions write (ValidatePodDisruptionBudgetStatusUpdate), generation
// bumped on spec changes, names as path segments (the generic registry's rule for kinds without their own), and
// `kubectl get pdb`'s table.
import { CREATION_DOC, NAME_DOC } from '../table-column-docs'
import type { PodDisruptionBudget } from '../../schema/pod-disruption-budget'
import type { ObjectMeta } from '../../schema/meta'
import { deepEqual } from '../deep-equal'
import { fieldError, FieldPath, type FieldError } from '../field-errors'
import { age } from '../human-duration'
import type { Strategy } from '../strategy'
import { validateConditions } from '../validation/conditions'
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../validation/int-or-percent'
import { validateNonnegativeField } from '../validation/object-meta'
import { goPtr, goStruct, validateLabelSelector } from './pod/pod-validation-formats'
import { validateRBACName } from './rbac/policy-rule-validation'

export type PDBObject = Omit<PodDisruptionBudget, 'metadata'> & { metadata: ObjectMeta }

const POLICIES = ['AlwaysAllow', 'IfHealthyBudget']
const spec = new FieldPath('spec')

/** %#v of the internal PodDisruptionBudgetSpec kube prints when both bounds are set (pointers as a fixed address). */
function goSpec(s: NonNullable<PDBObject['spec']>): string {
  return goStruct('policy.PodDisruptionBudgetSpec', [
    ['MinAvailable', goPtr('*intstr.IntOrString', s.minAvailable)],
    ['Selector', goPtr('*v1.LabelSelector', s.selector)],
    ['MaxUnavailable', goPtr('*intstr.IntOrString', s.maxUnavailable)],
    ['UnhealthyPodEvictionPolicy', goPtr('*policy.UnhealthyPodEvictionPolicyType', s.unhealthyPodEvictionPolicy)],
  ])
}

/** ValidatePodDisruptionBudgetSpec, in kube's order. */
function validateSpec(pdb: PDBObject): FieldError[] {
  const s = pdb.spec ?? {}
  const errs: FieldError[] = []
  if (s.minAvailable !== undefined && s.maxUnavailable !== undefined) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec',
      message: `Invalid value: ${goSpec(s)}: minAvailable and maxUnavailable cannot be both set`,
    })
  }
  for (const k of ['minAvailable', 'maxUnavailable'] as const) {
    if (s[k] === undefined) continue
    errs.push(...validatePositiveIntOrPercent(s[k], spec.child(k)))
    errs.push(...isNotMoreThan100Percent(s[k], spec.child(k)))
  }
  errs.push(...validateLabelSelector(s.selector, spec.child('selector')))
  const policy = s.unhealthyPodEvictionPolicy
  if (policy !== undefined && !POLICIES.includes(policy))
    errs.push(fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, POLICIES))
  return errs
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1): conditions, and counts that are not negative. */
function validateStatus(pdb: PDBObject): FieldError[] {
  const s = pdb.status
  const at = new FieldPath('status')
  const errs = validateConditions(s?.conditions, at.child('conditions'))
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const)
    errs.push(...validateNonnegativeField(s?.[k] ?? 0, at.child(k)))
  return errs
}

/** The zero status kube's PrepareForCreate leaves (its int32 counts are always written). */
const emptyStatus = (): NonNullable<PDBObject['status']> => ({
  disruptionsAllowed: 0,
  currentHealthy: 0,
  desiredHealthy: 0,
  expectedPods: 0,
})

/** IntOrString.String(): the number, or the string. */
const bound = (v: number | string | undefined) => (v === undefined ? 'N/A' : String(v))

export const podDisruptionBudgetStrategy: Strategy<PDBObject> = {
  validateName: validateRBACName,
  applyDefaults(pdb) {
    pdb.spec ??= {}
  },
  prepareForCreate(pdb) {
    pdb.status = emptyStatus()
    pdb.metadata.generation = 1
  },
  validate: validateSpec,
  prepareForUpdate(pdb, old) {
    pdb.status = old.status ?? emptyStatus()
    const generation = old.metadata.generation ?? 1
    pdb.metadata.generation = deepEqual(pdb.spec, old.spec) ? generation : generation + 1
  },
  validateUpdate: validateSpec,
  validateStatusUpdate: validateStatus,
  selectableFields: (pdb) => ({
    'metadata.name': pdb.metadata.name ?? '',
    'metadata.namespace': pdb.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      {
        name: 'Name',
        type: 'string',
        format: 'name',
        description: NAME_DOC,
        priority: 0,
      },
      {
        name: 'Min Available',
        type: 'string',
        format: '',
        description: 'The minimum number of pods that must be available.',
        priority: 0,
      },
      {
        name: 'Max Unavailable',
        type: 'string',
        format: '',
        description: 'The maximum number of pods that may be unavailable.',
        priority: 0,
      },
      {
        name: 'Allowed Disruptions',
        type: 'integer',
        format: '',
        description: 'Calculated number of pods that may be disrupted at this time.',
        priority: 0,
      },
      {
        name: 'Age',
        type: 'string',
        format: '',
        description: CREATION_DOC,
        priority: 0,
      },
    ],
    cells: (pdb, now) => [
      pdb.metadata.name,
      bound(pdb.spec?.minAvailable),
      bound(pdb.spec?.maxUnavailable),
      pdb.status?.disruptionsAllowed ?? 0,
      age(pdb.metadata.creationTimestamp, now),
    ],
  },
}
