// Files a volume makes from API objects and pod fields (secret, configMap and downwardAPI sources, and their
// projections): modes, key-to-path items and downward API files, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { FILE_MODE_ERROR_MSG, str } from './pod-validation-formats'
import { validateLocalNonReservedPath } from './pod-validation-mounts'
import {
  VOLUME_FIELD_PATHS,
  validateContainerResourceFieldSelector,
  validateObjectFieldSelector,
} from './pod-validation-env'
import type { DownwardAPIVolumeFile, KeyToPath } from './pod-types'

export function validateMode(mode: number | undefined, path: FieldPath): FieldError[] {
  if (mode !== undefined && (mode > 0o777 || mode < 0))
    return [fieldError.invalid(path.toString(), mode, FILE_MODE_ERROR_MSG)]
  return []
}

export function validateKeyToPath(kp: KeyToPath, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!kp.key) errs.push(fieldError.required(path.child('key').toString()))
  if (!kp.path) errs.push(fieldError.required(path.child('path').toString()))
  errs.push(...validateLocalNonReservedPath(str(kp.path), path.child('path')))
  errs.push(...validateMode(kp.mode, path.child('mode')))
  return errs
}

/** validateDownwardAPIVolumeFile; `path` is the source (kube does not index the items). */
export function validateDownwardAPIVolumeFile(file: DownwardAPIVolumeFile, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!file.path) errs.push(fieldError.required(path.child('path').toString()))
  errs.push(...validateLocalNonReservedPath(str(file.path), path.child('path')))
  if (file.fieldRef) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, VOLUME_FIELD_PATHS, path.child('fieldRef')))
    if (file.resourceFieldRef) {
      errs.push(
        fieldError.invalid(
          path.toString(),
          'resource',
          'fieldRef and resourceFieldRef can not be specified simultaneously',
        ),
      )
    }
  } else if (file.resourceFieldRef) {
    errs.push(...validateContainerResourceFieldSelector(file.resourceFieldRef, path.child('resourceFieldRef'), true))
  } else {
    errs.push(fieldError.required(path.toString(), 'one of fieldRef and resourceFieldRef is required'))
  }
  errs.push(...validateMode(file.mode, path.child('mode')))
  return errs
}
