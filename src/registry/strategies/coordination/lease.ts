// The Lease strategy: kube 1.33's ValidateLeaseSpec (duration > 0, transitions >= 0, the coordinated strategy's
// names, preferredHolder only with a strategy) and its feature gate: CoordinatedLeaderElection is off by default in
// 1.33, so strategy and preferredHolder are dropped on create and kept on update only when already stored. Table:
// NAME HOLDER AGE.
import type { Lease } from '../../../schema/lease'
import type { ObjectMeta } from '../../../schema/meta'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { isQualifiedName, nameIsDNSSubdomain } from '../../validation/names'
import { AGE_COLUMN, NAME_COLUMN } from '../config/data-keys'

type LeaseObject = Lease & { metadata: ObjectMeta }

const VALID_STRATEGIES = ['OldestEmulationVersion']
const specPath = new FieldPath('spec')

/** ValidateCoordinatedLeaseStrategy, quirk included: its errors name `spec.strategy.strategy`. */
function validateStrategy(strategy: string, path: FieldPath): FieldError[] {
  const at = path.child('strategy').toString()
  if (strategy.split('/').length === 1)
    return VALID_STRATEGIES.includes(strategy) ? [] : [fieldError.notSupported(at, strategy, VALID_STRATEGIES)]
  return isQualifiedName(strategy).map((msg) => fieldError.invalid(at, strategy, msg))
}

function validateLeaseSpec(lease: LeaseObject): FieldError[] {
  const spec = lease.spec ?? {}
  const errs: FieldError[] = []
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0)
    errs.push(fieldError.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'))
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0)
    errs.push(fieldError.invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'))
  if (spec.strategy !== undefined) errs.push(...validateStrategy(spec.strategy, specPath.child('strategy')))
  if (spec.preferredHolder && !spec.strategy)
    errs.push(fieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'))
  return errs
}

export const leaseStrategy: Strategy<LeaseObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: () => undefined,
  prepareForCreate(lease) {
    // The CoordinatedLeaderElection gate (off in 1.33) drops the fields it guards.
    if (lease.spec) {
      delete lease.spec.strategy
      delete lease.spec.preferredHolder
    }
  },
  validate: validateLeaseSpec,
  prepareForUpdate(lease, old) {
    if (!lease.spec) return
    if (old.spec?.strategy === undefined) delete lease.spec.strategy
    if (old.spec?.preferredHolder === undefined) delete lease.spec.preferredHolder
  },
  validateUpdate: (lease) => validateLeaseSpec(lease),
  selectableFields: (lease) => ({
    'metadata.name': lease.metadata.name ?? '',
    'metadata.namespace': lease.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      {
        name: 'Holder',
        type: 'string',
        format: '',
        description:
          'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
        priority: 0,
      },
      AGE_COLUMN,
    ],
    cells: (lease, now) => [
      lease.metadata.name,
      lease.spec?.holderIdentity ?? '',
      age(lease.metadata.creationTimestamp, now),
    ],
  },
}
