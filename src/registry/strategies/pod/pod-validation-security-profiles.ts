// What a pod's and a container's security contexts share: the seccomp and AppArmor profile fields and the Windows
// options, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { goPtr, goStruct, invalidGo, nameIsSubdomain, str } from './pod-validation-formats'
import { validateLocalDescendingPath } from './pod-validation-mounts'
import type { AppArmorProfile, SeccompProfile, WindowsSecurityContextOptions } from './pod-types'

/** %#v of a *core.SeccompProfile, as the localhostProfile error prints it. */
function goSeccomp(sp: SeccompProfile): string {
  return goStruct('core.SeccompProfile', [
    ['Type', goQuote(sp.type)],
    ['LocalhostProfile', goPtr('*string', sp.localhostProfile)],
  ])
}

/** validateSeccompProfileField. */
export function validateSeccompProfileField(sp: SeccompProfile | undefined, path: FieldPath): FieldError[] {
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
export function validateAppArmorProfileField(profile: AppArmorProfile | undefined, path: FieldPath): FieldError[] {
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
export function validateWindowsOptions(opts: WindowsSecurityContextOptions | undefined, path: FieldPath): FieldError[] {
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
