// kube's system PriorityClasses (pkg/apis/scheduling/v1/helpers.go), which the scheduling/bootstrap-system-priority-
// classes post-start hook creates, and the value rules that protect them (pkg/apis/scheduling/types.go).
import type { KubeObject } from '../../schema/meta'

/** Names with this prefix are reserved for the system classes. */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-'
/** The highest value a user-defined class may have. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000
/** SystemCriticalPriority: the base of the system classes' values. */
const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY

interface SystemPriorityClass {
  name: string
  value: number
  description: string
}

export const SYSTEM_PRIORITY_CLASSES: readonly SystemPriorityClass[] = [
  {
    name: 'system-node-critical',
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: SYSTEM_CRITICAL_PRIORITY,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
]

/** IsKnownSystemPriorityClass: null when it is one (name, value and globalDefault false), else why not. */
export function knownSystemPriorityClassError(name: string, value: number, globalDefault: boolean): string | null {
  const spc = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name)
  if (!spc) return `${name} is not a known system priority class`
  if (spc.value !== value) return `value of ${spc.name} PriorityClass must be ${spc.value}`
  if (globalDefault) return `globalDefault of ${spc.name} PriorityClass must be false`
  return null
}

/** The objects the bootstrap hook creates (their preemptionPolicy is the scheme default). */
export function systemPriorityClassObjects(): KubeObject[] {
  return SYSTEM_PRIORITY_CLASSES.map((c) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
  }))
}
