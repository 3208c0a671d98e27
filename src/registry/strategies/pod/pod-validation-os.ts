// The pod's operating system (validateOS with validateLinux and validateWindows: what a Linux or Windows pod may not
// set) and Windows host-process pods, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { allContainers } from './pod-validation-containers'
import { list } from './pod-validation-formats'
import type { PodSpec } from './pod-types'

/** validateWindowsHostProcessPod: all or no containers are host processes, and they need the host network. */
export function validateWindowsHostProcessPod(spec: PodSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const podHostProcess = spec.securityContext?.windowsOptions?.hostProcess
  let count = 0
  let hostProcessCount = 0
  for (const [c, p] of allContainers(spec)) {
    count++
    const own = c.securityContext?.windowsOptions?.hostProcess
    if (podHostProcess !== undefined && own !== undefined && podHostProcess !== own) {
      errs.push(
        fieldError.invalid(
          p.child('securityContext').child('windowsOptions').child('hostProcess').toString(),
          own,
          `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`,
        ),
      )
    }
    if (own === true || (own === undefined && podHostProcess === true)) hostProcessCount++
  }
  if (hostProcessCount > 0) {
    if (hostProcessCount !== count) {
      errs.push(
        fieldError.invalid(
          path.toString(),
          '',
          'If pod contains any hostProcess containers then all containers must be HostProcess containers',
        ),
      )
    }
    if (!spec.hostNetwork) {
      errs.push(
        fieldError.invalid(
          path.child('hostNetwork').toString(),
          false,
          'hostNetwork must be true if pod contains any hostProcess containers',
        ),
      )
    }
  }
  return errs
}

/** validateOS plus the per-OS restrictions (validateLinux, validateWindows). */
export function validateOS(spec: PodSpec, path: FieldPath): FieldError[] {
  const os = spec.os!
  const osPath = path.child('os')
  if (!os.name) return [fieldError.required(osPath.child('name').toString(), 'cannot be empty')]
  if (os.name !== 'linux' && os.name !== 'windows')
    return [fieldError.notSupported(osPath.toString(), os.name, ['linux', 'windows'])]
  const errs: FieldError[] = []
  const sc = spec.securityContext
  const scPath = path.child('securityContext')
  if (os.name === 'linux') {
    const detail = 'windows options cannot be set for a linux pod'
    if (sc?.windowsOptions) errs.push(fieldError.forbidden(scPath.child('windowsOptions').toString(), detail))
    for (const [c, p] of allContainers(spec)) {
      if (c.securityContext?.windowsOptions)
        errs.push(fieldError.forbidden(p.child('securityContext').child('windowsOptions').toString(), detail))
    }
    return errs
  }
  const detail = 'cannot be set for a windows pod'
  const forbid = (p: FieldPath) => errs.push(fieldError.forbidden(p.toString(), detail))
  if (sc) {
    if (sc.appArmorProfile) forbid(scPath.child('appArmorProfile'))
    if (sc.seLinuxOptions) forbid(scPath.child('seLinuxOptions'))
  }
  if (spec.hostUsers !== undefined) forbid(path.child('hostUsers'))
  if (spec.hostPID) forbid(path.child('hostPID'))
  if (spec.hostIPC) forbid(path.child('hostIPC'))
  if (sc) {
    for (const key of ['seccompProfile', 'fsGroup', 'fsGroupChangePolicy'] as const)
      if (sc[key] !== undefined) forbid(scPath.child(key))
    if (list(sc.sysctls).length > 0) forbid(scPath.child('sysctls'))
  }
  if (spec.shareProcessNamespace !== undefined) forbid(path.child('shareProcessNamespace'))
  if (sc) {
    for (const key of [
      'runAsUser',
      'runAsGroup',
      'supplementalGroups',
      'supplementalGroupsPolicy',
      'seLinuxChangePolicy',
    ] as const) {
      if (sc[key] !== undefined) forbid(scPath.child(key))
    }
  }
  for (const [c, p] of allContainers(spec)) {
    const csc = c.securityContext
    if (!csc) continue
    const cp = p.child('securityContext')
    for (const key of [
      'appArmorProfile',
      'seLinuxOptions',
      'seccompProfile',
      'capabilities',
      'readOnlyRootFilesystem',
      'privileged',
      'allowPrivilegeEscalation',
      'procMount',
      'runAsUser',
      'runAsGroup',
    ] as const) {
      if (csc[key] !== undefined) forbid(cp.child(key))
    }
  }
  return errs
}
