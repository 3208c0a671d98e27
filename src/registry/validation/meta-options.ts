// The options every write carries, validated as kube validates them (k8s.io/apimachinery pkg/apis/meta/v1/validation:
// ValidateCreateOptions, ValidateUpdateOptions, ValidatePatchOptions, ValidateDeleteOptions), and the 422 that refuses
// them: `CreateOptions.meta.k8s.io "" is invalid: ...`, every error of the options at once.
import { fieldError, type FieldError } from '../field-errors'
import { statuses, type Status } from '../status'
import { validateFieldManager } from './managed-fields'

/** The kind an options refusal names (in meta.k8s.io, with the name ""). */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions'

/** Create, update and patch options as the parameter codec reads them: every dryRun value, the first of the others. */
export interface WriteOptionValues {
  dryRun: readonly string[]
  /** '' when absent (the user agent's name is then recorded, or an apply is refused). */
  fieldManager: string
  /** '' when absent (Warn). */
  fieldValidation: string
}

/** DeleteOptions as decoded (body) or converted (query): any string may arrive where Go has a string type. */
interface DeleteOptionValues {
  propagationPolicy?: string
  orphanDependents?: boolean
  dryRun?: readonly string[]
}

const DRY_RUN_VALUES = ['All']
// sets.NewString(...).List(): sorted, the empty string first.
const FIELD_VALIDATION_VALUES = ['', 'Ignore', 'Strict', 'Warn']
const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan']

/** ValidateDryRun: every value must be "All"; the whole list is the bad value (`[]string{"All", "Nope"}`). */
function validateDryRun(values: readonly string[]): FieldError[] {
  return values.every((v) => DRY_RUN_VALUES.includes(v))
    ? []
    : [fieldError.notSupported('dryRun', [...values], DRY_RUN_VALUES)]
}

function validateFieldValidation(value: string): FieldError[] {
  return FIELD_VALIDATION_VALUES.includes(value)
    ? []
    : [fieldError.notSupported('fieldValidation', value, FIELD_VALIDATION_VALUES)]
}

/** ValidateCreateOptions and ValidateUpdateOptions (the same rules). */
export function validateWriteOptions(o: WriteOptionValues): FieldError[] {
  return [
    ...validateFieldManager(o.fieldManager, 'fieldManager'),
    ...validateDryRun(o.dryRun),
    ...validateFieldValidation(o.fieldValidation),
  ]
}

/** ValidatePatchOptions: an apply names its manager; `force` belongs to applies alone. */
export function validatePatchOptions(o: WriteOptionValues & { force?: boolean }, apply: boolean): FieldError[] {
  const errors: FieldError[] = []
  if (apply && o.fieldManager === '') errors.push(fieldError.required('fieldManager', 'is required for apply patch'))
  if (!apply && o.force !== undefined) {
    errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'))
  }
  return [...errors, ...validateWriteOptions(o)]
}

/**
 * ValidateDeleteOptions (ignoreStoreReadErrorWithClusterBreakingPotential is dropped before, as kube drops it while
 * its feature gate, alpha in 1.33, is off).
 */
export function validateDeleteOptions(o: DeleteOptionValues): FieldError[] {
  const errors: FieldError[] = []
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errors.push(
      fieldError.invalid(
        'propagationPolicy',
        o.propagationPolicy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    )
  }
  if (o.propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(o.propagationPolicy)) {
    errors.push(fieldError.notSupported('propagationPolicy', o.propagationPolicy, [...PROPAGATION_POLICIES, 'nil']))
  }
  return [...errors, ...validateDryRun(o.dryRun ?? [])]
}

/** kube's refusal of invalid options: `<kind>.meta.k8s.io "" is invalid: ...`. */
export const invalidOptions = (kind: OptionsKind, errors: FieldError[]): Status =>
  statuses.invalid(kind, '', errors, 'meta.k8s.io')
