// Annotations with pod-specific meaning (ValidatePodSpecificAnnotations) and, on create, their agreement with the
// seccomp and AppArmor fields that replaced them, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import type { ObjectMeta } from '../../../schema/meta'
import { goQuote } from '../../go-strings'
import { validateLocalDescendingPath } from './pod-validation-mounts'
import { allContainers } from './pod-validation-containers'
import type { PodSpec } from './pod-types'

const specPath = new FieldPath('spec')
const annotationsPath = new FieldPath('metadata').child('annotations')

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror'
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/'
const DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost'
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod'
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/'

/** GetDeletionCostFromPodAnnotations: an int32 without a plus sign or leading zeros. */
function isValidDeletionCost(value: string): boolean {
  const first = value[0]
  const validFirst = first === '-' || value === '0' || (first !== undefined && first >= '1' && first <= '9')
  if (!validFirst || !/^-?\d+$/.test(value)) return false
  const n = Number(value)
  return n >= -2147483648 && n <= 2147483647
}

/** ValidateSeccompProfile: the legacy annotation values. */
function validateSeccompAnnotationValue(p: string, path: FieldPath): FieldError[] {
  if (p === 'runtime/default' || p === 'docker/default' || p === 'unconfined') return []
  if (p.startsWith('localhost/')) return validateLocalDescendingPath(p.slice('localhost/'.length), path)
  return [fieldError.invalid(path.toString(), p, 'must be a valid seccomp profile')]
}

/** ValidatePodSpecificAnnotations; `at` is where the annotations are (a pod template's are `spec.template.annotations`). */
export function validatePodSpecificAnnotations(
  annotations: Record<string, string>,
  spec: PodSpec,
  allowInvalidDeletionCost = false,
  at: FieldPath = annotationsPath,
): FieldError[] {
  const errs: FieldError[] = []
  const mirror = annotations[MIRROR_POD_ANNOTATION]
  if (mirror !== undefined && !spec.nodeName) {
    errs.push(
      fieldError.invalid(
        at.key(MIRROR_POD_ANNOTATION).toString(),
        mirror,
        'must set spec.nodeName if mirror pod annotation is set',
      ),
    )
  }
  const cost = annotations[DELETION_COST_ANNOTATION]
  if (!allowInvalidDeletionCost && cost !== undefined && !isValidDeletionCost(cost)) {
    errs.push(fieldError.invalid(at.key(DELETION_COST_ANNOTATION).toString(), cost, 'must be a 32bit integer'))
  }
  // Seccomp annotations are reported at annotations.<key> (Child, not Key), as kube does.
  const seccomp = annotations[SECCOMP_POD_ANNOTATION]
  if (seccomp !== undefined) errs.push(...validateSeccompAnnotationValue(seccomp, at.child(SECCOMP_POD_ANNOTATION)))
  for (const [k, v] of Object.entries(annotations)) {
    if (k.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...validateSeccompAnnotationValue(v, at.child(k)))
  }
  const names = new Set(allContainers(spec).map(([c]) => c.name))
  for (const [k, v] of Object.entries(annotations)) {
    if (!k.startsWith(APPARMOR_ANNOTATION_PREFIX)) continue
    const container = k.slice(APPARMOR_ANNOTATION_PREFIX.length)
    const field = at.key(k).toString()
    if (!names.has(container)) errs.push(fieldError.invalid(field, container, 'container not found'))
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/')) {
      errs.push(fieldError.invalid(field, v, `invalid AppArmor profile name: ${goQuote(v)}`))
    }
  }
  return errs
}

/** validateSeccompAnnotationsAndFields: where both are set, the legacy annotation must agree with the field. */
export function validateSeccompAnnotationsAndFields(meta: ObjectMeta, spec: PodSpec): FieldError[] {
  const errs: FieldError[] = []
  const annotations = meta.annotations ?? {}
  const check = (annotation: string, field: { type: string; localhostProfile?: string }, path: FieldPath) => {
    const mismatch = () =>
      errs.push(fieldError.forbidden(path.child('type').toString(), 'seccomp type in annotation and field must match'))
    if (field.type === 'Unconfined' && annotation !== 'unconfined') mismatch()
    else if (field.type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default')
      mismatch()
    else if (field.type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) mismatch()
      else if (
        field.localhostProfile === undefined ||
        annotation.slice('localhost/'.length) !== field.localhostProfile
      ) {
        errs.push(
          fieldError.forbidden(
            path.child('localhostProfile').toString(),
            'seccomp profile in annotation and field must match',
          ),
        )
      }
    }
  }
  const podProfile = spec.securityContext?.seccompProfile
  const podAnnotation = annotations[SECCOMP_POD_ANNOTATION]
  if (podProfile && podAnnotation !== undefined)
    check(podAnnotation, podProfile, specPath.child('securityContext').child('seccompProfile'))
  for (const [c, p] of allContainers(spec)) {
    const profile = c.securityContext?.seccompProfile
    const annotation = annotations[SECCOMP_CONTAINER_PREFIX + c.name]
    if (profile && annotation !== undefined)
      check(annotation, profile, p.child('securityContext').child('seccompProfile'))
  }
  return errs
}

/** validateAppArmorAnnotationsAndFieldsMatchOnCreate. */
export function validateAppArmorAnnotationsAndFieldsMatchOnCreate(meta: ObjectMeta, spec: PodSpec): FieldError[] {
  if (spec.os?.name === 'windows') return []
  const errs: FieldError[] = []
  const annotations = meta.annotations ?? {}
  const podProfile = spec.securityContext?.appArmorProfile
  for (const [c, p] of allContainers(spec)) {
    const profile = c.securityContext?.appArmorProfile ?? podProfile
    const annotation = annotations[APPARMOR_ANNOTATION_PREFIX + c.name]
    if (!profile || annotation === undefined) continue
    const ap = p.child('securityContext').child('appArmorProfile')
    const mismatch = () =>
      errs.push(fieldError.forbidden(ap.child('type').toString(), 'apparmor type in annotation and field must match'))
    if (profile.type === 'Unconfined' && annotation !== 'unconfined') mismatch()
    else if (profile.type === 'RuntimeDefault' && annotation !== 'runtime/default') mismatch()
    else if (profile.type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) mismatch()
      else if (
        profile.localhostProfile === undefined ||
        annotation.slice('localhost/'.length) !== profile.localhostProfile
      ) {
        errs.push(
          fieldError.forbidden(
            ap.child('localhostProfile').toString(),
            'apparmor profile in annotation and field must match',
          ),
        )
      }
    }
  }
  return errs
}
