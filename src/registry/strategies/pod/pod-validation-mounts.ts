// Volume mounts and devices (ValidateVolumeMounts, ValidateVolumeDevices) and the path rules mounts, volumes and
// seccomp profiles share, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { list, str } from './pod-validation-formats'
import type { AnyContainer, Volume, VolumeMount } from './pod-types'

type Ctr = AnyContainer

/** path.IsAbs on the apiserver's OS. */
const isAbs = (p: string) => p.startsWith('/')

/** validatePathNoBacksteps. */
export function validatePathNoBacksteps(target: string, path: FieldPath): FieldError[] {
  if (target.split('/').includes('..')) return [fieldError.invalid(path.toString(), target, "must not contain '..'")]
  return []
}

/** validateLocalDescendingPath: relative, without '..'. */
export function validateLocalDescendingPath(target: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (isAbs(target)) errs.push(fieldError.invalid(path.toString(), target, 'must be a relative path'))
  errs.push(...validatePathNoBacksteps(target, path))
  return errs
}

/** ValidateLocalNonReservedPath: a descending path that does not start with '..'. */
export function validateLocalNonReservedPath(target: string, path: FieldPath): FieldError[] {
  const errs = validateLocalDescendingPath(target, path)
  if (target.startsWith('..') && !target.startsWith('../')) {
    errs.push(fieldError.invalid(path.toString(), target, "must not start with '..'"))
  }
  return errs
}

const PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None']
const RRO = ['Disabled', 'Enabled', 'IfPossible']

/**
 * ValidateVolumeMounts. The subPath, subPathExpr, mountPropagation and recursiveReadOnly errors name the list path
 * (`volumeMounts.subPath`), not the entry: kube passes the list path down.
 */
export function validateVolumeMounts(
  ctr: Ctr,
  devices: Map<string, string>,
  volumes: Map<string, Volume>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const mountPoints = new Set<string>()
  const devicePaths = new Set(devices.values())
  list(ctr.volumeMounts).forEach((mnt: VolumeMount, i) => {
    const p = path.index(i)
    const name = str(mnt.name)
    const mountPath = str(mnt.mountPath)
    if (name === '') errs.push(fieldError.required(p.child('name').toString()))
    if (!volumes.has(name)) errs.push(fieldError.notFound(p.child('name').toString(), name))
    if (mountPath === '') errs.push(fieldError.required(p.child('mountPath').toString()))
    if (mountPoints.has(mountPath))
      errs.push(fieldError.invalid(p.child('mountPath').toString(), mountPath, 'must be unique'))
    mountPoints.add(mountPath)
    if (devices.has(name))
      errs.push(fieldError.invalid(p.child('name').toString(), name, 'must not already exist in volumeDevices'))
    if (devicePaths.has(mountPath)) {
      errs.push(
        fieldError.invalid(
          p.child('mountPath').toString(),
          mountPath,
          'must not already exist as a path in volumeDevices',
        ),
      )
    }
    if (volumes.get(name)?.image) {
      if (mnt.subPath)
        errs.push(fieldError.invalid(p.child('subPath').toString(), mnt.subPath, 'not allowed in image volume sources'))
      if (mnt.subPathExpr) {
        errs.push(
          fieldError.invalid(p.child('subPathExpr').toString(), mnt.subPathExpr, 'not allowed in image volume sources'),
        )
      }
    }
    if (mnt.subPath) errs.push(...validateLocalDescendingPath(mnt.subPath, path.child('subPath')))
    if (mnt.subPathExpr) {
      if (mnt.subPath) {
        errs.push(
          fieldError.invalid(
            p.child('subPathExpr').toString(),
            mnt.subPathExpr,
            'subPathExpr and subPath are mutually exclusive',
          ),
        )
      }
      errs.push(...validateLocalDescendingPath(mnt.subPathExpr, path.child('subPathExpr')))
    }
    if (mnt.mountPropagation !== undefined) {
      const at = path.child('mountPropagation').toString()
      if (!PROPAGATIONS.includes(mnt.mountPropagation))
        errs.push(fieldError.notSupported(at, mnt.mountPropagation, PROPAGATIONS))
      if (mnt.mountPropagation === 'Bidirectional' && ctr.securityContext?.privileged !== true) {
        errs.push(
          fieldError.forbidden(at, 'Bidirectional mount propagation is available only to privileged containers'),
        )
      }
    }
    if (mnt.recursiveReadOnly !== undefined) {
      const at = path.child('recursiveReadOnly').toString()
      if (mnt.recursiveReadOnly === 'Enabled' || mnt.recursiveReadOnly === 'IfPossible') {
        if (!mnt.readOnly) errs.push(fieldError.forbidden(at, 'may only be specified when readOnly is true'))
        if (mnt.mountPropagation !== undefined && mnt.mountPropagation !== 'None') {
          errs.push(fieldError.forbidden(at, 'may only be specified when mountPropagation is None or not specified'))
        }
      } else if (mnt.recursiveReadOnly !== 'Disabled') {
        errs.push(fieldError.notSupported(at, mnt.recursiveReadOnly, RRO))
      }
    }
  })
  return errs
}

/** ValidateVolumeDevices: raw block devices, only from claims. */
export function validateVolumeDevices(
  ctr: Ctr,
  mounts: Map<string, string>,
  volumes: Map<string, Volume>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const devicePaths = new Set<string>()
  const deviceNames = new Set<string>()
  const mountPaths = new Set(mounts.values())
  list(ctr.volumeDevices).forEach((dev, i) => {
    const p = path.index(i)
    const name = str(dev.name)
    const devPath = str(dev.devicePath)
    const volume = volumes.get(name)
    const isPVC = volume !== undefined && (volume.persistentVolumeClaim !== undefined || volume.ephemeral !== undefined)
    if (name === '') errs.push(fieldError.required(p.child('name').toString()))
    if (deviceNames.has(name)) errs.push(fieldError.invalid(p.child('name').toString(), name, 'must be unique'))
    if (volume && !isPVC) {
      errs.push(
        fieldError.invalid(
          p.child('name').toString(),
          name,
          'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
        ),
      )
    }
    if (!volume) errs.push(fieldError.notFound(p.child('name').toString(), name))
    if (devPath === '') errs.push(fieldError.required(p.child('devicePath').toString()))
    if (devicePaths.has(devPath))
      errs.push(fieldError.invalid(p.child('devicePath').toString(), devPath, 'must be unique'))
    if (devPath.length > 0 && devPath.split('/').includes('..')) {
      errs.push(fieldError.invalid(p.child('devicePath').toString(), devPath, "can not contain backsteps ('..')"))
    } else {
      devicePaths.add(devPath)
    }
    if (mounts.has(name))
      errs.push(fieldError.invalid(p.child('name').toString(), name, 'must not already exist in volumeMounts'))
    if (mountPaths.has(devPath)) {
      errs.push(
        fieldError.invalid(
          p.child('devicePath').toString(),
          devPath,
          'must not already exist as a path in volumeMounts',
        ),
      )
    }
    if (name.length > 0) deviceNames.add(name)
  })
  return errs
}
