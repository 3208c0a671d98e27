// The status a replica manager writes, as kube checks it on /status writes: ValidateReplicationControllerStatus and
// ValidateReplicaSetStatus are one rule (counts non-negative, none above what contains it).
import { fieldError, FieldPath, type FieldError } from '../field-errors'
import { validateNonnegativeField } from '../validation/object-meta'

interface ReplicaCounts {
  replicas?: number
  fullyLabeledReplicas?: number
  readyReplicas?: number
  availableReplicas?: number
  observedGeneration?: number
}

export function validateReplicaStatus(s: ReplicaCounts = {}): FieldError[] {
  const path = new FieldPath('status')
  const errs: FieldError[] = []
  for (const k of [
    'replicas',
    'fullyLabeledReplicas',
    'readyReplicas',
    'availableReplicas',
    'observedGeneration',
  ] as const) {
    errs.push(...validateNonnegativeField(s[k] ?? 0, path.child(k)))
  }
  const replicas = s.replicas ?? 0
  const above = 'cannot be greater than status.replicas'
  if ((s.fullyLabeledReplicas ?? 0) > replicas)
    errs.push(fieldError.invalid('status.fullyLabeledReplicas', s.fullyLabeledReplicas, above))
  if ((s.readyReplicas ?? 0) > replicas) errs.push(fieldError.invalid('status.readyReplicas', s.readyReplicas, above))
  if ((s.availableReplicas ?? 0) > replicas)
    errs.push(fieldError.invalid('status.availableReplicas', s.availableReplicas, above))
  if ((s.availableReplicas ?? 0) > (s.readyReplicas ?? 0)) {
    errs.push(
      fieldError.invalid('status.availableReplicas', s.availableReplicas, 'cannot be greater than readyReplicas'),
    )
  }
  return errs
}
