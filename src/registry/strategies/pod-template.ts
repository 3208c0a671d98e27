// Pod templates as the workload kinds hold them (ReplicationController, ReplicaSet, Deployment, and the other apps
// kinds): the defaults a template gets (SetDefaults_PodSpec and the container defaults, without the pod-only ones) and
// kube's ValidatePodTemplateSpecForRC / ForReplicaSet (selector matches the labels, ValidatePodTemplateSpec,
// restartPolicy Always, no activeDeadlineSeconds).
import type { PodSpec } from '../../schema/pod'
import type { PodTemplateSpec } from '../../schema/replication-controller'
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { validateAnnotations, validateLabels } from '../validation/object-meta'
import { applyPodDefaults } from './pod/pod-defaults'
import type { PodObject } from './pod/pod-types'
import { goStringMap } from './pod/pod-validation-formats'
import { validatePodSpecificAnnotations } from './pod/pod-validation-annotations'
import { validatePodSpec } from './pod/pod-validation-spec'

/**
 * Pod-spec fields applyPodDefaults fills in that kube sets only on pods (SetDefaults_Pod and admission plugins), never
 * on templates: a template keeps what its author wrote there, and the pods made from it get these when created.
 */
const POD_ONLY_DEFAULTS = [
  'enableServiceLinks',
  'serviceAccountName',
  'serviceAccount',
  'priority',
  'preemptionPolicy',
  'tolerations',
] as const

/** SetDefaults_PodSpec and the container defaults, applied to a template's spec in place. */
function applyPodSpecTemplateDefaults(spec: PodSpec) {
  // Copies: the pod defaults push into these arrays and maps in place.
  const before = Object.fromEntries(POD_ONLY_DEFAULTS.map((k) => [k, structuredClone(spec[k])]))
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])]
  // SetDefaults_Pod's requests-from-limits is pod-only too.
  const requests = containers.map((c) => structuredClone(c.resources?.requests))
  applyPodDefaults({ metadata: {}, spec } as PodObject)
  for (const k of POD_ONLY_DEFAULTS) {
    if (before[k] === undefined) delete spec[k]
    else (spec as Record<string, unknown>)[k] = before[k]
  }
  containers.forEach((c, i) => {
    if (!c.resources) return
    if (requests[i] === undefined) delete c.resources.requests
    else c.resources.requests = requests[i]
  })
}

/** The scheme defaults of a pod template, in place (its spec is created when absent, as Go's zero struct is there). */
export function applyTemplateDefaults(template: PodTemplateSpec) {
  applyPodSpecTemplateDefaults((template.spec ??= { containers: [] }) as PodSpec)
}

/** %#v of a map[string]string field that may be nil. */
const goLabelsValue = (labels: Record<string, string> | undefined) =>
  labels === undefined ? 'map[string]string(nil)' : goStringMap(labels)

/** The invalid-value error for a template whose labels the selector does not match. */
export function selectorMismatch(template: PodTemplateSpec, at: FieldPath): FieldError {
  const labels = template.metadata?.labels
  return {
    type: 'FieldValueInvalid',
    field: at.child('metadata').child('labels').toString(),
    message: `Invalid value: ${goLabelsValue(labels)}: \`selector\` does not match template \`labels\``,
  }
}

/**
 * ValidatePodTemplateSpec: the template's labels, annotations (pod-specific ones too) and pod spec; no ephemeral
 * containers. (kube's seccomp and AppArmor annotation/field agreement checks are not run on templates here.)
 */
export function validatePodTemplateSpec(template: PodTemplateSpec, at: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  // kube names the template's label and annotation maps without `metadata`.
  errs.push(...validateLabels(template.metadata?.labels, at.child('labels')))
  errs.push(...validateAnnotations(template.metadata?.annotations, at.child('annotations')))
  const podSpec = (template.spec ?? { containers: [] }) as PodSpec
  errs.push(
    ...validatePodSpecificAnnotations(template.metadata?.annotations ?? {}, podSpec, false, at.child('annotations')),
  )
  errs.push(...validatePodSpec(podSpec, undefined, at.child('spec')))
  if ((podSpec.ephemeralContainers ?? []).length > 0) {
    errs.push(
      fieldError.forbidden(
        at.child('spec').child('ephemeralContainers').toString(),
        'ephemeral containers not allowed in pod template',
      ),
    )
  }
  return errs
}

/**
 * ValidatePodTemplateSpecForRC and ValidatePodTemplateSpecForReplicaSet (one shape, two wordings): `matches` is null
 * when the selector is empty (nothing to check), else whether it matches the template's labels. `kindName` words the
 * activeDeadlineSeconds refusal (`ReplicationController`, `ReplicaSet`).
 */
export function validateReplicaTemplate(
  template: PodTemplateSpec | undefined,
  matches: ((labels: Record<string, string> | undefined) => boolean) | null,
  at: FieldPath,
  kindName: string,
): FieldError[] {
  if (!template) return [fieldError.required(at.toString())]
  const errs: FieldError[] = []
  if (matches && !matches(template.metadata?.labels)) errs.push(selectorMismatch(template, at))
  errs.push(...validatePodTemplateSpec(template, at))
  const spec = (template.spec ?? {}) as Partial<PodSpec>
  if (spec.restartPolicy !== 'Always') {
    errs.push(
      fieldError.notSupported(at.child('spec').child('restartPolicy').toString(), spec.restartPolicy ?? '', ['Always']),
    )
  }
  if (spec.activeDeadlineSeconds !== undefined) {
    errs.push(
      fieldError.forbidden(
        at.child('spec').child('activeDeadlineSeconds').toString(),
        `activeDeadlineSeconds in ${kindName} is not Supported`,
      ),
    )
  }
  return errs
}

/** labels.FormatLabels-style `name` list of a template's containers and their images (kubectl's wide columns). */
export function containerCells(template: PodTemplateSpec | undefined): [names: string, images: string] {
  const containers = template?.spec?.containers ?? []
  return [containers.map((c) => c.name).join(','), containers.map((c) => c.image ?? '').join(',')]
}
