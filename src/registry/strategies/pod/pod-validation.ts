// Pod validation on create (ValidatePodCreate) and the spec rules create and update share (ValidatePodSpec and the
// pod-only checks of validatePodMetadataAndSpec), after kube-apiserver 1.33 pkg/apis/core/validation. Every error is a
// FieldError with kube's path and wording. ObjectMeta itself is validated by the generic store.
//
// Split by what each file owns: the spec (pod-validation-spec.ts), pod-specific annotations
// (pod-validation-annotations.ts), containers (pod-validation-containers.ts) and what they embed: ports
// (pod-validation-ports.ts), env (pod-validation-env.ts), mounts (pod-validation-mounts.ts), probes
// (pod-validation-probes.ts) and resources (pod-validation-resources.ts); security contexts
// (pod-validation-security.ts), volumes (pod-validation-volumes*.ts), scheduling (pod-validation-scheduling.ts), DNS
// (pod-validation-dns.ts), updates (pod-validation-update.ts), the status subresource (pod-validation-status.ts) and
// shared formats (pod-validation-formats.ts).
//
// Feature gates are taken at their 1.33 defaults: RelaxedEnvironmentVariableValidation, RelaxedDNSSearchValidation,
// PodLifecycleSleepActionAllowZero, InPlacePodVerticalScaling, SidecarContainers and UserNamespacesSupport behave as
// enabled; PodLevelResources, StrictIPCIDRValidation and the alpha fields behave as disabled.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { list } from './pod-validation-formats'
import { validateContainerOnlyForPod } from './pod-validation-containers'
import {
  validateAppArmorAnnotationsAndFieldsMatchOnCreate,
  validatePodSpecificAnnotations,
  validateSeccompAnnotationsAndFields,
} from './pod-validation-annotations'
import { validatePodSpec } from './pod-validation-spec'
import type { PodObject, PodSpec } from './pod-types'

const specPath = new FieldPath('spec')

/** ValidatePodCreate, minus ObjectMeta (the store's job). */
export function validatePod(pod: PodObject): FieldError[] {
  const spec = pod.spec ?? ({} as PodSpec)
  const errs = validatePodMetadataAndSpec(pod)
  if (list(spec.ephemeralContainers).length > 0) {
    errs.push(fieldError.forbidden(specPath.child('ephemeralContainers').toString(), 'cannot be set on create'))
  }
  if (spec.nodeName && list(spec.schedulingGates).length !== 0) {
    errs.push(
      fieldError.forbidden(
        specPath.child('nodeName').toString(),
        'cannot be set until all schedulingGates have been cleared',
      ),
    )
  }
  errs.push(...validateSeccompAnnotationsAndFields(pod.metadata, spec))
  errs.push(...validateAppArmorAnnotationsAndFieldsMatchOnCreate(pod.metadata, spec))
  return errs
}

/** validatePodMetadataAndSpec without ValidateObjectMeta: what create and update both check. */
export function validatePodMetadataAndSpec(pod: PodObject): FieldError[] {
  const spec = pod.spec ?? ({} as PodSpec)
  const errs: FieldError[] = []
  errs.push(...validatePodSpecificAnnotations(pod.metadata.annotations ?? {}, spec))
  errs.push(...validatePodSpec(spec, pod.metadata, specPath))
  // Pod-only checks, kept out of ValidatePodSpec for pod templates' sake.
  if (!spec.serviceAccountName) {
    list(spec.volumes).forEach((volume, vi) => {
      list(volume.projected?.sources).forEach((source, si) => {
        if (source.serviceAccountToken) {
          const at = specPath
            .child('volumes')
            .index(vi)
            .child('projected')
            .child('sources')
            .index(si)
            .child('serviceAccountToken')
          errs.push(fieldError.forbidden(at.toString(), 'must not be specified when serviceAccountName is not set'))
        }
      })
    })
  }
  list(spec.containers).forEach((c, i) =>
    errs.push(...validateContainerOnlyForPod(c, specPath.child('containers').index(i))),
  )
  list(spec.initContainers).forEach((c, i) =>
    errs.push(...validateContainerOnlyForPod(c, specPath.child('initContainers').index(i))),
  )
  return errs
}
