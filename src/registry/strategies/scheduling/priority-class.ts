// The PriorityClass strategy (cluster-scoped): kube 1.33's default preemption policy, ValidatePriorityClass and its
// update (pkg/apis/scheduling/validation: reserved `system-` names, the user-definable ceiling, value and preemption
// policy immutable), the Priority admission plugin's check that at most one class is the global default, the system
// classes' protection from deletion (the priorityclasses REST's Delete), and the `kubectl get priorityclass` table.
import type { ObjectMeta } from '../../../schema/meta'
import type { PriorityClass } from '../../../schema/priority-class'
import { fieldError, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import {
  HIGHEST_USER_DEFINABLE_PRIORITY,
  knownSystemPriorityClassError,
  SYSTEM_PRIORITY_CLASS_PREFIX,
  SYSTEM_PRIORITY_CLASSES,
} from '../../scheduling/system-priority-classes'
import { statuses } from '../../status'
import type { Strategy, StrategyContext } from '../../strategy'
import { nameIsDNSSubdomain } from '../../validation/names'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { AGE_COLUMN, NAME_COLUMN } from '../config/data-keys'

export type PriorityClassObject = PriorityClass & { metadata: ObjectMeta }

const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never']
const RESOURCE = { group: 'scheduling.k8s.io', resource: 'priorityclasses' }

function validate(pc: PriorityClassObject): FieldError[] {
  const errs: FieldError[] = []
  const name = pc.metadata.name ?? ''
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const why = knownSystemPriorityClassError(name, pc.value, pc.globalDefault ?? false)
    if (why)
      errs.push(
        fieldError.forbidden(
          'metadata.name',
          `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${why}`,
        ),
      )
  } else if (pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(
      fieldError.forbidden(
        'value',
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    )
  }
  // ValidatePreemptionPolicy.
  const policy = pc.preemptionPolicy
  if (policy === '') errs.push(fieldError.required('preemptionPolicy'))
  else if (policy !== undefined && !PREEMPTION_POLICIES.includes(policy))
    errs.push(fieldError.notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES))
  return errs
}

/**
 * getDefaultPriorityClass: the class pods naming none get, among `classes` (the lowest value when a race left
 * several defaults), or null.
 */
export function defaultPriorityClass(classes: readonly PriorityClassObject[]): PriorityClassObject | null {
  let found: PriorityClassObject | null = null
  for (const pc of classes) if (pc.globalDefault && (found === null || found.value > pc.value)) found = pc
  return found
}

const priorityClassesOf = (ctx: StrategyContext) =>
  (ctx.clusterObjects?.('priorityclasses') ?? []) as PriorityClassObject[]

export const priorityClassStrategy: Strategy<PriorityClassObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(pc) {
    // SetDefaults_PriorityClass.
    pc.preemptionPolicy ??= 'PreemptLowerPriority'
  },
  prepareForCreate: () => undefined,
  validate,
  prepareForUpdate: () => undefined,
  validateUpdate(pc, old) {
    const errs: FieldError[] = []
    if (pc.value !== old.value) errs.push(fieldError.forbidden('value', 'may not be changed in an update.'))
    if ((pc.preemptionPolicy ?? null) !== (old.preemptionPolicy ?? null))
      errs.push(fieldError.invalid('preemptionPolicy', pc.preemptionPolicy ?? null, FIELD_IMMUTABLE_ERROR_MSG))
    return errs
  },
  /** The Priority plugin's validatePriorityClass: a second global default is refused (Forbidden). */
  validateAdmission(pc, ctx, old) {
    if (!pc.globalDefault || ctx.subresource) return null
    const current = defaultPriorityClass(priorityClassesOf(ctx))
    if (!current) return null
    if (old === null || current.metadata.name !== pc.metadata.name)
      return `PriorityClass ${current.metadata.name} is already marked as default. Only one default can exist`
    return null
  },
  beginDelete(pc) {
    if (!SYSTEM_PRIORITY_CLASSES.some((c) => c.name === pc.metadata.name)) return null
    return {
      status: statuses.forbidden(
        RESOURCE,
        pc.metadata.name ?? '',
        'this is a system priority class and cannot be deleted',
      ),
    }
  },
  selectableFields: (pc) => ({ 'metadata.name': pc.metadata.name ?? '' }),
  fieldSelectorNames: ['metadata.name'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      {
        name: 'Value',
        type: 'integer',
        format: '',
        description:
          'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
        priority: 0,
      },
      {
        name: 'Global-Default',
        type: 'boolean',
        format: '',
        description:
          'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
        priority: 0,
      },
      AGE_COLUMN,
      {
        name: 'PreemptionPolicy',
        type: 'string',
        format: '',
        description:
          'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
        priority: 0,
      },
    ],
    cells: (pc, now) => [
      pc.metadata.name,
      pc.value,
      pc.globalDefault ?? false,
      age(pc.metadata.creationTimestamp, now),
      pc.preemptionPolicy ?? '',
    ],
  },
}
