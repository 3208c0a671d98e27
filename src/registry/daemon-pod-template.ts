// The template a DaemonSet's new pods are made from (kube's CreatePodTemplate, pkg/controller/daemon/util): the set's
// template plus the daemon tolerations, the template generation label (when the set has one) and the revision hash
// label the rollout compares. Pure.
import { REVISION_HASH_LABEL } from './controller-history'
import { TEMPLATE_GENERATION_LABEL } from './daemon-decisions'
import { addDaemonTolerations } from './daemon-placement'

type Obj = Record<string, any>

/** A copy of `podTemplate` (the set's spec.template) as the set's pods are created from it. */
export function createPodTemplate(podTemplate: unknown, generation: number | null, hash: string): Obj {
  const template = structuredClone(podTemplate ?? {}) as Obj
  template.spec ??= { containers: [] }
  addDaemonTolerations(template.spec)
  template.metadata = { ...(template.metadata ?? {}) }
  template.metadata.labels = {
    ...(template.metadata.labels ?? {}),
    ...(generation !== null ? { [TEMPLATE_GENERATION_LABEL]: String(generation) } : {}),
    [REVISION_HASH_LABEL]: hash,
  }
  return template
}
