// Pod update validation (ValidatePodUpdate), after kube-apiserver 1.33 pkg/apis/core/validation: the new pod must be
// valid, and its spec may only change where kube allows it (images, activeDeadlineSeconds, added tolerations,
// removed scheduling gates, a negative grace period raised to 1, node selector and affinity additions while gated).
// Anything else gets kube's single Forbidden error on `spec`, with a diff appendix naming what changed.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { clone } from '../../deep-equal'
import { MAX_INT32, inclusiveRangeError, list, str } from './pod-validation-formats'
import { goTrimSpace } from './pod-validation-containers'
import { describeSpecDiff, semanticEqual } from './pod-spec-diff'
import {
  validateNodeAffinityMutation,
  validateNodeSelectorMutation,
  validateOnlyAddedTolerations,
  validateOnlyDeletedSchedulingGates,
} from './pod-validation-update-scheduling'
import {
  APPARMOR_ANNOTATION_PREFIX,
  MIRROR_POD_ANNOTATION,
  validatePodSpecificAnnotations,
} from './pod-validation-annotations'
import { validatePodMetadataAndSpec } from './pod-validation'
import type { Container, PodObject, PodSpec } from './pod-types'

const specPath = new FieldPath('spec')
const annotationsPath = new FieldPath('metadata').child('annotations')

/** The fields ValidatePodUpdate lets an update change, joined as kube 1.33 prints them. */
const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',')

/** ValidatePodUpdate minus ObjectMetaUpdate (the store's job). */
export function validatePodUpdate(pod: PodObject, old: PodObject): FieldError[] {
  const spec = pod.spec ?? ({} as PodSpec)
  const oldSpec = old.spec ?? ({} as PodSpec)
  const errs = validatePodMetadataAndSpec(pod)
  errs.push(...validatePodSpecificAnnotationUpdates(pod, old))

  for (const key of ['containers', 'initContainers'] as const) {
    const result = validateContainerUpdates(list(spec[key]), list(oldSpec[key]), specPath.child(key))
    errs.push(...result.errors)
    if (result.stop) return errs
  }

  const deadlinePath = specPath.child('activeDeadlineSeconds').toString()
  if (spec.activeDeadlineSeconds !== undefined) {
    const value = spec.activeDeadlineSeconds
    if (value < 0 || value > MAX_INT32) {
      errs.push(fieldError.invalid(deadlinePath, value, inclusiveRangeError(0, MAX_INT32)))
      return errs
    }
    if (oldSpec.activeDeadlineSeconds !== undefined && oldSpec.activeDeadlineSeconds < value) {
      errs.push(fieldError.invalid(deadlinePath, value, 'must be less than or equal to previous value'))
      return errs
    }
  } else if (oldSpec.activeDeadlineSeconds !== undefined) {
    // A nil *int64 prints as the string "null", quoted.
    errs.push(fieldError.invalid(deadlinePath, 'null', 'must not update from a positive integer to nil value'))
  }

  errs.push(
    ...validateOnlyAddedTolerations(list(spec.tolerations), list(oldSpec.tolerations), specPath.child('tolerations')),
  )
  errs.push(
    ...validateOnlyDeletedSchedulingGates(
      list(spec.schedulingGates),
      list(oldSpec.schedulingGates),
      specPath.child('schedulingGates'),
    ),
  )

  if (semanticEqual(spec, oldSpec)) return errs

  // Mask what may change with the old values; whatever still differs is forbidden.
  const munged = clone(spec) as PodSpec
  const setOrDelete = <K extends keyof PodSpec>(key: K, value: PodSpec[K] | undefined) => {
    if (value === undefined) delete munged[key]
    else munged[key] = clone(value)
  }
  list(munged.containers).forEach((c, i) => setImage(c, oldSpec.containers?.[i]))
  list(munged.initContainers).forEach((c, i) => setImage(c, oldSpec.initContainers?.[i]))
  setOrDelete('activeDeadlineSeconds', oldSpec.activeDeadlineSeconds)
  setOrDelete('schedulingGates', oldSpec.schedulingGates)
  setOrDelete('tolerations', oldSpec.tolerations)
  const oldGrace = oldSpec.terminationGracePeriodSeconds
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = oldGrace

  // A pod still held by scheduling gates may gain node selector entries and node affinity requirements.
  if (list(oldSpec.schedulingGates).length > 0) {
    if (!semanticEqual(munged.nodeSelector, oldSpec.nodeSelector)) {
      errs.push(
        ...validateNodeSelectorMutation(specPath.child('nodeSelector'), munged.nodeSelector, oldSpec.nodeSelector),
      )
      setOrDelete('nodeSelector', oldSpec.nodeSelector)
    }
    const oldNA = oldSpec.affinity?.nodeAffinity
    const newNA = munged.affinity?.nodeAffinity
    if (!semanticEqual(oldNA, newNA)) {
      errs.push(...validateNodeAffinityMutation(specPath.child('affinity').child('nodeAffinity'), newNA, oldNA))
      if (!munged.affinity && !oldNA) {
        // already effectively nil
      } else if (!munged.affinity && oldNA) {
        munged.affinity = { nodeAffinity: clone(oldNA) }
      } else if (
        munged.affinity &&
        !oldSpec.affinity &&
        !munged.affinity.podAntiAffinity &&
        !munged.affinity.podAffinity
      ) {
        delete munged.affinity
      } else if (munged.affinity) {
        if (oldNA) munged.affinity.nodeAffinity = clone(oldNA)
        else delete munged.affinity.nodeAffinity
      }
    }
  }

  if (!semanticEqual(munged, oldSpec)) {
    const diff = describeSpecDiff(oldSpec, munged)
    errs.push(
      fieldError.forbidden(
        specPath.toString(),
        `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS}\n${diff}`,
      ),
    )
  }
  return errs
}

function setImage(c: Container, old: Container | undefined) {
  if (old?.image === undefined) delete c.image
  else c.image = old.image
}

/** ValidateContainerUpdates: same number of containers, each with a usable image. */
function validateContainerUpdates(containers: readonly Container[], old: readonly Container[], path: FieldPath) {
  if (containers.length !== old.length) {
    return {
      errors: [fieldError.forbidden(path.toString(), 'pod updates may not add or remove containers')],
      stop: true,
    }
  }
  const errors: FieldError[] = []
  containers.forEach((c, i) => {
    const image = str(c.image)
    if (image.length === 0) errors.push(fieldError.required(path.index(i).child('image').toString()))
    if (goTrimSpace(image).length !== image.length) {
      errors.push(
        fieldError.invalid(
          path.index(i).child('image').toString(),
          image,
          'must not have leading or trailing whitespace',
        ),
      )
    }
  })
  return { errors, stop: false }
}

/** ValidatePodSpecificAnnotationUpdates: mirror-pod and AppArmor annotations are fixed at creation. */
export function validatePodSpecificAnnotationUpdates(pod: PodObject, old: PodObject): FieldError[] {
  const errs: FieldError[] = []
  const now = pod.metadata.annotations ?? {}
  const before = old.metadata.annotations ?? {}
  for (const [k, v] of Object.entries(before)) {
    if (k in now && now[k] === v) continue
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX))
      errs.push(
        fieldError.forbidden(annotationsPath.key(k).toString(), 'may not remove or update AppArmor annotations'),
      )
    if (k === MIRROR_POD_ANNOTATION)
      errs.push(
        fieldError.forbidden(annotationsPath.key(k).toString(), 'may not remove or update mirror pod annotation'),
      )
  }
  for (const k of Object.keys(now)) {
    if (k in before) continue
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX))
      errs.push(fieldError.forbidden(annotationsPath.key(k).toString(), 'may not add AppArmor annotations'))
    if (k === MIRROR_POD_ANNOTATION)
      errs.push(fieldError.forbidden(annotationsPath.key(k).toString(), 'may not add mirror pod annotation'))
  }
  // An invalid deletion cost already stored stays tolerated.
  const oldCostErrors = validatePodSpecificAnnotations(before, old.spec ?? ({} as PodSpec)).some((e) =>
    e.message.endsWith('must be a 32bit integer'),
  )
  errs.push(...validatePodSpecificAnnotations(now, pod.spec ?? ({} as PodSpec), oldCostErrors))
  return errs
}
