// Security context validation: the container-level ValidateSecurityContext and the pod-level
// validatePodSpecSecurityContext (sysctls included), after kube-apiserver 1.33 pkg/apis/core/validation. The seccomp,
// AppArmor and Windows option checks both share: ./pod-validation-security-profiles.ts.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { goPtr, goStruct, invalidGo, isValidUnixID, list, str } from './pod-validation-formats'
import {
  validateAppArmorProfileField,
  validateSeccompProfileField,
  validateWindowsOptions,
} from './pod-validation-security-profiles'
import type { PodSecurityContext, PodSpec, SecurityContext } from './pod-types'

/** %#v of *core.SecurityContext, as the allowPrivilegeEscalation errors print it. */
function goSecurityContext(sc: SecurityContext): string {
  return goStruct('core.SecurityContext', [
    ['Capabilities', goPtr('*core.Capabilities', sc.capabilities)],
    ['Privileged', goPtr('*bool', sc.privileged)],
    ['SELinuxOptions', goPtr('*core.SELinuxOptions', sc.seLinuxOptions)],
    ['WindowsOptions', goPtr('*core.WindowsSecurityContextOptions', sc.windowsOptions)],
    ['RunAsUser', goPtr('*int64', sc.runAsUser)],
    ['RunAsGroup', goPtr('*int64', sc.runAsGroup)],
    ['RunAsNonRoot', goPtr('*bool', sc.runAsNonRoot)],
    ['ReadOnlyRootFilesystem', goPtr('*bool', sc.readOnlyRootFilesystem)],
    ['AllowPrivilegeEscalation', goPtr('*bool', sc.allowPrivilegeEscalation)],
    ['ProcMount', goPtr('*core.ProcMountType', sc.procMount)],
    ['SeccompProfile', goPtr('*core.SeccompProfile', sc.seccompProfile)],
    ['AppArmorProfile', goPtr('*core.AppArmorProfile', sc.appArmorProfile)],
  ])
}

/**
 * ValidateSecurityContext (container level). Privileged containers are allowed, as on clusters started with
 * --allow-privileged=true (kubeadm, kind and every managed offering).
 */
export function validateSecurityContext(
  sc: SecurityContext | undefined,
  path: FieldPath,
  hostUsers: boolean,
): FieldError[] {
  if (!sc) return []
  const errs: FieldError[] = []
  if (sc.runAsUser !== undefined) {
    errs.push(
      ...isValidUnixID(sc.runAsUser).map((m) =>
        fieldError.invalid(path.child('runAsUser').toString(), sc.runAsUser, m),
      ),
    )
  }
  if (sc.runAsGroup !== undefined) {
    errs.push(
      ...isValidUnixID(sc.runAsGroup).map((m) =>
        fieldError.invalid(path.child('runAsGroup').toString(), sc.runAsGroup, m),
      ),
    )
  }
  if (sc.procMount !== undefined) {
    const at = path.child('procMount').toString()
    if (sc.procMount !== 'Default' && sc.procMount !== 'Unmasked')
      errs.push(fieldError.notSupported(at, sc.procMount, ['Default', 'Unmasked']))
    if (hostUsers && sc.procMount === 'Unmasked')
      errs.push(fieldError.invalid(at, sc.procMount, '`hostUsers` must be false to use `Unmasked`'))
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile')))
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) {
      errs.push(
        invalidGo(
          path.toString(),
          goSecurityContext(sc),
          'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
        ),
      )
    }
    for (const cap of list(sc.capabilities?.add)) {
      if (cap === 'CAP_SYS_ADMIN') {
        errs.push(
          invalidGo(
            path.toString(),
            goSecurityContext(sc),
            'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
          ),
        )
      }
    }
  }
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')))
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, path.child('appArmorProfile')))
  return errs
}

const SYSCTL_RE = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/
const SYSCTL_RE_TEXT = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$'

/** utilsysctl.GetNamespace: which host namespace a namespaced sysctl belongs to. */
function sysctlNamespace(name: string): 'net' | 'ipc' | '' {
  const n = name.replaceAll('/', '.')
  if (n.startsWith('net.')) return 'net'
  if (
    [
      'kernel.shmmax',
      'kernel.shmall',
      'kernel.shmmni',
      'kernel.shm_rmid_forced',
      'kernel.msgmax',
      'kernel.msgmnb',
      'kernel.msgmni',
      'kernel.sem',
    ].includes(n)
  )
    return 'ipc'
  if (n.startsWith('fs.mqueue.')) return 'ipc'
  return ''
}

/**
 * validatePodSpecSecurityContext. Internally kube keeps hostNetwork, hostPID, hostIPC and shareProcessNamespace in the
 * security context, which is why the shareProcessNamespace error reads spec.securityContext.shareProcessNamespace.
 */
export function validatePodSecurityContext(spec: PodSpec, path: FieldPath): FieldError[] {
  const sc: PodSecurityContext | undefined = spec.securityContext
  if (!sc) return []
  const errs: FieldError[] = []
  const id = (key: 'fsGroup' | 'runAsUser' | 'runAsGroup') => {
    const value = sc[key]
    if (value !== undefined)
      errs.push(...isValidUnixID(value).map((m) => fieldError.invalid(path.child(key).toString(), value, m)))
  }
  id('fsGroup')
  id('runAsUser')
  id('runAsGroup')
  list(sc.supplementalGroups).forEach((gid, g) => {
    errs.push(
      ...isValidUnixID(gid).map((m) =>
        fieldError.invalid(path.child('supplementalGroups').index(g).toString(), gid, m),
      ),
    )
  })
  if (spec.shareProcessNamespace === true && spec.hostPID) {
    errs.push(
      fieldError.invalid(
        path.child('shareProcessNamespace').toString(),
        true,
        'ShareProcessNamespace and HostPID cannot both be enabled',
      ),
    )
  }
  const sysctls = new Set<string>()
  list(sc.sysctls).forEach((s, i) => {
    const at = path.child('sysctls').index(i).child('name').toString()
    if (!s.name) errs.push(fieldError.required(at))
    else if (s.name.length > 253 || !SYSCTL_RE.test(s.name)) {
      errs.push(fieldError.invalid(at, s.name, `must have at most 253 characters and match regex ${SYSCTL_RE_TEXT}`))
    } else if (sysctls.has(s.name)) errs.push(fieldError.duplicate(at, s.name))
    const ns = sysctlNamespace(str(s.name))
    if (spec.hostNetwork && ns === 'net')
      errs.push(fieldError.invalid(at, s.name, "may not be specified when 'hostNetwork' is true"))
    else if (spec.hostIPC && ns === 'ipc')
      errs.push(fieldError.invalid(at, s.name, "may not be specified when 'hostIPC' is true"))
    sysctls.add(s.name)
  })
  if (sc.fsGroupChangePolicy !== undefined && !['Always', 'OnRootMismatch'].includes(sc.fsGroupChangePolicy)) {
    errs.push(
      fieldError.notSupported(path.child('fsGroupChangePolicy').toString(), sc.fsGroupChangePolicy, [
        'Always',
        'OnRootMismatch',
      ]),
    )
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile')))
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')))
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, path.child('appArmorProfile')))
  if (sc.supplementalGroupsPolicy !== undefined && !['Merge', 'Strict'].includes(sc.supplementalGroupsPolicy)) {
    errs.push(
      fieldError.notSupported(path.child('supplementalGroupsPolicy').toString(), sc.supplementalGroupsPolicy, [
        'Merge',
        'Strict',
      ]),
    )
  }
  if (sc.seLinuxChangePolicy !== undefined && !['MountOption', 'Recursive'].includes(sc.seLinuxChangePolicy)) {
    errs.push(
      fieldError.notSupported(path.child('seLinuxChangePolicy').toString(), sc.seLinuxChangePolicy, [
        'MountOption',
        'Recursive',
      ]),
    )
  }
  return errs
}
