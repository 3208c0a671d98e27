// Security context validation: the container-level ValidateSecurityContext, the pod-level
// validatePodSpecSecurityContext (sysctls included), and the seccomp, AppArmor and Windows option checks both share,
// after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { goPtr, goStruct, invalidGo, isValidUnixID, list, nameIsSubdomain, str } from './pod-validation-formats'
import { validateLocalDescendingPath } from './pod-validation-mounts'
import type {
  AppArmorProfile,
  PodSecurityContext,
  PodSpec,
  SeccompProfile,
  SecurityContext,
  WindowsSecurityContextOptions,
} from './pod-types'

/** %#v of a *core.SeccompProfile, as the localhostProfile error prints it. */
function goSeccomp(sp: SeccompProfile): string {
  return goStruct('core.SeccompProfile', [
    ['Type', goQuote(sp.type)],
    ['LocalhostProfile', goPtr('*string', sp.localhostProfile)],
  ])
}

/** validateSeccompProfileField. */
function validateSeccompProfileField(sp: SeccompProfile | undefined, path: FieldPath): FieldError[] {
  if (!sp) return []
  const errs: FieldError[] = []
  const type = str(sp.type)
  if (type === '')
    errs.push(fieldError.required(path.child('type').toString(), 'type is required when seccompProfile is set'))
  else if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(type)) {
    errs.push(
      fieldError.notSupported(path.child('type').toString(), type, ['Localhost', 'RuntimeDefault', 'Unconfined']),
    )
  }
  if (type === 'Localhost') {
    if (sp.localhostProfile === undefined) {
      errs.push(
        fieldError.required(path.child('localhostProfile').toString(), 'must be set when seccomp type is Localhost'),
      )
    } else {
      errs.push(...validateLocalDescendingPath(sp.localhostProfile, path.child('localhostProfile')))
    }
  } else if (sp.localhostProfile !== undefined) {
    errs.push(
      invalidGo(
        path.child('localhostProfile').toString(),
        goSeccomp(sp),
        'can only be set when seccomp type is Localhost',
      ),
    )
  }
  return errs
}

/** ValidateAppArmorProfileField. */
function validateAppArmorProfileField(profile: AppArmorProfile | undefined, path: FieldPath): FieldError[] {
  if (!profile) return []
  const errs: FieldError[] = []
  const lp = path.child('localhostProfile').toString()
  switch (str(profile.type)) {
    case 'Localhost':
      if (profile.localhostProfile === undefined)
        errs.push(fieldError.required(lp, 'must be set when AppArmor type is Localhost'))
      else {
        const trimmed = profile.localhostProfile.trim()
        if (trimmed !== profile.localhostProfile)
          errs.push(fieldError.invalid(lp, profile.localhostProfile, 'must not be padded with whitespace'))
        else if (trimmed === '') errs.push(fieldError.required(lp, 'must be set when AppArmor type is Localhost'))
        if (new TextEncoder().encode(profile.localhostProfile).length > 4095) errs.push(fieldError.tooLong(lp, 4095))
      }
      break
    case 'RuntimeDefault':
    case 'Unconfined':
      if (profile.localhostProfile !== undefined)
        errs.push(fieldError.invalid(lp, profile.localhostProfile, 'can only be set when AppArmor type is Localhost'))
      break
    case '':
      errs.push(fieldError.required(path.child('type').toString(), 'type is required when appArmorProfile is set'))
      break
    default:
      errs.push(
        fieldError.notSupported(path.child('type').toString(), profile.type, [
          'Localhost',
          'RuntimeDefault',
          'Unconfined',
        ]),
      )
  }
  return errs
}

const NETBIOS = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/
const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?'
const WINDOWS_DOMAIN_DNS = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`)

/** validateWindowsSecurityContextOptions. */
function validateWindowsOptions(opts: WindowsSecurityContextOptions | undefined, path: FieldPath): FieldError[] {
  if (!opts) return []
  const errs: FieldError[] = []
  if (opts.gmsaCredentialSpecName !== undefined) {
    errs.push(...validateDNS1123SubdomainAt(opts.gmsaCredentialSpecName, path.child('gmsaCredentialSpecName')))
  }
  if (opts.gmsaCredentialSpec !== undefined) {
    const at = path.child('gmsaCredentialSpec').toString()
    const len = new TextEncoder().encode(opts.gmsaCredentialSpec).length
    if (len === 0)
      errs.push(fieldError.invalid(at, opts.gmsaCredentialSpec, 'gmsaCredentialSpec cannot be an empty string'))
    else if (len > 64 * 1024)
      errs.push(fieldError.invalid(at, opts.gmsaCredentialSpec, 'gmsaCredentialSpec size must be under 64 KiB'))
  }
  if (opts.runAsUserName !== undefined) {
    const at = path.child('runAsUserName').toString()
    const name = opts.runAsUserName
    const bad = (detail: string) => errs.push(fieldError.invalid(at, name, detail))
    const parts = name.split('\\')
    if (name.length === 0) bad('runAsUserName cannot be an empty string')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: kube's [[:cntrl:]] class, deliberately
    else if (/[\x00-\x1f\x7f]/.test(name)) bad('runAsUserName cannot contain control characters')
    else if (parts.length > 2) bad('runAsUserName cannot contain more than one backslash')
    else {
      const hasDomain = parts.length === 2
      const domain = hasDomain ? parts[0]! : ''
      const user = hasDomain ? parts[1]! : parts[0]!
      if (domain.length >= 256) bad("runAsUserName's Domain length must be under 256 characters")
      if (hasDomain && !(NETBIOS.test(domain) || WINDOWS_DOMAIN_DNS.test(domain)))
        bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
      if (user.length === 0) bad("runAsUserName's User cannot be empty")
      else if (user.length > 104) bad("runAsUserName's User length must not be longer than 104 characters")
      if (/^[. ]+$/.test(user)) bad("runAsUserName's User cannot contain only periods or spaces")
      if (/["/\\:;|=,+*?<>@[\]]/.test(user))
        bad('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]')
    }
  }
  return errs
}

function validateDNS1123SubdomainAt(value: string, path: FieldPath): FieldError[] {
  return nameIsSubdomain(value, false).map((m) => fieldError.invalid(path.toString(), value, m))
}

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
