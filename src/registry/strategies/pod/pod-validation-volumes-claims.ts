// Generic ephemeral volumes: the claim template's metadata and spec, after kube-apiserver 1.33
// pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { validateAnnotations, validateLabels } from '../../validation/object-meta'
import { IS_NOT_POSITIVE_ERROR_MSG, list, nameIsSubdomain, validateLabelSelector } from './pod-validation-formats'
import { isPositiveQuantity, quantityString } from './pod-validation-quantities'
import type { PersistentVolumeClaimSpec } from './pod-types'
import type { ObjectMeta } from '../../../schema/meta'

// ObjectMeta's fields in Go struct order, with the lower-cased Go name kube's allow-list error uses.
const TEMPLATE_META_FIELDS: [keyof ObjectMeta, string][] = [
  ['name', 'name'],
  ['generateName', 'generateName'],
  ['namespace', 'namespace'],
  ['selfLink', 'selfLink'],
  ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'],
  ['generation', 'generation'],
  ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'],
  ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'],
  ['finalizers', 'finalizers'],
  ['managedFields', 'managedFields'],
]

/** ValidateTemplateObjectMeta: a claim template may only carry labels and annotations. */
export function validateTemplateObjectMeta(meta: ObjectMeta | undefined, path: FieldPath): FieldError[] {
  if (!meta) return []
  const errs = [
    ...validateAnnotations(meta.annotations, path.child('annotations')),
    ...validateLabels(meta.labels, path.child('labels')),
  ]
  for (const [key, goName] of TEMPLATE_META_FIELDS) {
    const v = meta[key]
    if (v !== undefined && v !== '' && v !== 0 && !(Array.isArray(v) && v.length === 0)) {
      errs.push(fieldError.forbidden(path.child(goName).toString(), 'cannot be set'))
    }
  }
  return errs
}

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod']

/** ValidatePersistentVolumeClaimSpec, for the claim template of a generic ephemeral volume. */
export function validatePVCSpec(spec: PersistentVolumeClaimSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const modes = list(spec.accessModes)
  if (modes.length === 0)
    errs.push(fieldError.required(path.child('accessModes').toString(), 'at least 1 access mode is required'))
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, path.child('selector')))
  let rwop = false
  let other = false
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode))
      errs.push(fieldError.notSupported(path.child('accessModes').toString(), mode, ACCESS_MODES))
    if (mode === 'ReadWriteOncePod') rwop = true
    else if (ACCESS_MODES.includes(mode)) other = true
  }
  if (rwop && other)
    errs.push(
      fieldError.forbidden(
        path.child('accessModes').toString(),
        'may not use ReadWriteOncePod with other access modes',
      ),
    )
  const storagePath = path.child('resources').key('storage').toString()
  const storage = spec.resources?.requests?.storage
  if (storage === undefined) errs.push(fieldError.required(storagePath))
  else if (!isPositiveQuantity(storage))
    errs.push(fieldError.invalid(storagePath, quantityString(storage), IS_NOT_POSITIVE_ERROR_MSG))
  if (spec.storageClassName) {
    errs.push(
      ...nameIsSubdomain(spec.storageClassName, false).map((m) =>
        fieldError.invalid(path.child('storageClassName').toString(), spec.storageClassName, m),
      ),
    )
  }
  if (spec.volumeMode !== undefined && spec.volumeMode !== 'Block' && spec.volumeMode !== 'Filesystem') {
    errs.push(fieldError.notSupported(path.child('volumeMode').toString(), spec.volumeMode, ['Block', 'Filesystem']))
  }
  return errs
}
