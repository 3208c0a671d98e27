// kube 1.33's Priority admission plugin (plugin/pkg/admission/priority) as it mutates pods: on a create, the pod's
// PriorityClass (or the global default when it names none) gives spec.priority and spec.preemptionPolicy, a class
// that does not exist is refused, and so is a priority or policy the pod sets itself that differs; on an update,
// what the create resolved is kept. The classes are the cluster's (StrategyContext.clusterObjects).
import { systemPriorityClassObjects } from '../../scheduling/system-priority-classes'
import type { StrategyContext } from '../../strategy'
import { defaultPriorityClass, type PriorityClassObject } from '../scheduling/priority-class'
import type { PodObject, PodSpec } from './pod-types'

/** DefaultPriorityWhenNoDefaultClassExists. */
const NO_DEFAULT_PRIORITY = 0
const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority'

type Policy = PodSpec['preemptionPolicy']

/** The classes admission sees: the cluster's, or kube's system classes where no cluster is at hand (pure tests). */
function classesOf(ctx: StrategyContext): PriorityClassObject[] {
  const found = ctx.clusterObjects?.('priorityclasses')
  if (found) return found as PriorityClassObject[]
  return systemPriorityClassObjects().map((pc) => ({ ...pc, preemptionPolicy: PREEMPT_LOWER_PRIORITY }) as never)
}

/** What the create resolves: the class's name (the default's, or '' when none), priority and preemption policy. */
function resolve(spec: PodSpec, classes: PriorityClassObject[]): { value: number; policy?: string } | string {
  if (!spec.priorityClassName) {
    const dpc = defaultPriorityClass(classes)
    if (!dpc) return { value: NO_DEFAULT_PRIORITY, policy: PREEMPT_LOWER_PRIORITY }
    spec.priorityClassName = dpc.metadata.name
    return { value: dpc.value, policy: dpc.preemptionPolicy }
  }
  const pc = classes.find((c) => c.metadata.name === spec.priorityClassName)
  if (!pc) return `no PriorityClass with name ${spec.priorityClassName} was found`
  return { value: pc.value, policy: pc.preemptionPolicy }
}

/** The plugin's Admit for a pod (old: null on a create). Answers its refusal (Forbidden), or null. */
export function admitPriority(pod: PodObject, ctx: StrategyContext, old: PodObject | null): string | null {
  const spec = pod.spec
  if (old !== null) {
    spec.priority ??= old.spec.priority
    spec.preemptionPolicy ??= old.spec.preemptionPolicy
    // A pod the plugin never saw (a body defaulted against itself) resolves as a create would, refusing nothing.
    if (spec.priority === undefined) {
      const r = resolve({ ...spec }, classesOf(ctx))
      spec.priority = typeof r === 'string' ? NO_DEFAULT_PRIORITY : r.value
      spec.preemptionPolicy ??= (
        typeof r === 'string' ? PREEMPT_LOWER_PRIORITY : (r.policy ?? PREEMPT_LOWER_PRIORITY)
      ) as Policy
    }
    return null
  }
  const r = resolve(spec, classesOf(ctx))
  if (typeof r === 'string') return r
  if (spec.priority !== undefined && spec.priority !== r.value)
    return `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${r.value} from the given PriorityClass name`
  spec.priority = r.value
  if (r.policy !== undefined) {
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== r.policy)
      return `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${r.policy} from the given PriorityClass name`
    spec.preemptionPolicy = r.policy as Policy
  }
  return null
}
