// Pod validation on create (ValidatePodCreate) and the spec rules create and update share (ValidatePodSpec and the
// pod-only checks of validatePodMetadataAndSpec), after kube-apiserver 1.33 pkg/apis/core/validation. Every error is a
// FieldError with kube's path and wording. ObjectMeta itself is validated by the generic store.
//
// Split by what each file owns: containers (pod-validation-containers.ts), security contexts
// (pod-validation-security.ts), volumes (pod-validation-volumes.ts), scheduling (pod-validation-scheduling.ts), updates (pod-validation-update.ts), the status subresource
// (pod-validation-status.ts) and shared formats (pod-validation-formats.ts).
//
// Feature gates are taken at their 1.33 defaults: RelaxedEnvironmentVariableValidation, RelaxedDNSSearchValidation,
// PodLifecycleSleepActionAllowZero, InPlacePodVerticalScaling, SidecarContainers and UserNamespacesSupport behave as
// enabled; PodLevelResources, StrictIPCIDRValidation and the alpha fields behave as disabled.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { validateLabels } from '../../validation/object-meta'
import type { ObjectMeta } from '../../../schema/meta'
import { goQuote } from '../../go-strings'
import {
  MAX_INT32,
  goPtr,
  goStruct,
  inclusiveRangeError,
  invalidGo,
  isValidUnixID,
  list,
  nameIsSubdomain,
  str,
  validateDNS1123Label,
  validateIP,
  validateQualifiedName,
} from './pod-validation-formats'
import {
  validateContainerOnlyForPod, validateContainers, validateEphemeralContainers, validateInitContainers,
  validateLocalDescendingPath, validateResourceRequirements, type ContainerContext,
} from './pod-validation-containers'
import { validateAppArmorProfileField, validateSeccompProfileField, validateWindowsOptions } from './pod-validation-security'
import { validateVolumes } from './pod-validation-volumes'
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './pod-validation-scheduling'
import type { AnyContainer, PodDNSConfig, PodObject, PodSecurityContext, PodSpec } from './pod-types'

export { validatePodUpdate } from './pod-validation-update'
export { validatePodStatusUpdate } from './pod-validation-status'

const specPath = new FieldPath('spec')
const annotationsPath = new FieldPath('metadata').child('annotations')

/** ValidatePodCreate, minus ObjectMeta (the store's job). */
export function validatePod(pod: PodObject): FieldError[] {
  const spec = pod.spec ?? ({} as PodSpec)
  const errs = validatePodMetadataAndSpec(pod)
  if (list(spec.ephemeralContainers).length > 0) {
    errs.push(fieldError.forbidden(specPath.child('ephemeralContainers').toString(), 'cannot be set on create'))
  }
  if (spec.nodeName && list(spec.schedulingGates).length !== 0) {
    errs.push(fieldError.forbidden(specPath.child('nodeName').toString(), 'cannot be set until all schedulingGates have been cleared'))
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
          const at = specPath.child('volumes').index(vi).child('projected').child('sources').index(si).child('serviceAccountToken')
          errs.push(fieldError.forbidden(at.toString(), 'must not be specified when serviceAccountName is not set'))
        }
      })
    })
  }
  list(spec.containers).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, specPath.child('containers').index(i))))
  list(spec.initContainers).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, specPath.child('initContainers').index(i))))
  return errs
}

// ---------------------------------------------------------------------------------------------------------------
// Annotations with pod-specific meaning

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

/** VisitContainersWithPath order: init, regular, ephemeral. */
function allContainers(spec: PodSpec): [AnyContainer, FieldPath][] {
  return [
    ...list(spec.initContainers).map((c, i) => [c, specPath.child('initContainers').index(i)] as [AnyContainer, FieldPath]),
    ...list(spec.containers).map((c, i) => [c, specPath.child('containers').index(i)] as [AnyContainer, FieldPath]),
    ...list(spec.ephemeralContainers).map((c, i) => [c, specPath.child('ephemeralContainers').index(i)] as [AnyContainer, FieldPath]),
  ]
}

/** ValidatePodSpecificAnnotations. */
export function validatePodSpecificAnnotations(annotations: Record<string, string>, spec: PodSpec, allowInvalidDeletionCost = false): FieldError[] {
  const errs: FieldError[] = []
  const mirror = annotations[MIRROR_POD_ANNOTATION]
  if (mirror !== undefined && !spec.nodeName) {
    errs.push(fieldError.invalid(annotationsPath.key(MIRROR_POD_ANNOTATION).toString(), mirror, 'must set spec.nodeName if mirror pod annotation is set'))
  }
  const cost = annotations[DELETION_COST_ANNOTATION]
  if (!allowInvalidDeletionCost && cost !== undefined && !isValidDeletionCost(cost)) {
    errs.push(fieldError.invalid(annotationsPath.key(DELETION_COST_ANNOTATION).toString(), cost, 'must be a 32bit integer'))
  }
  // Seccomp annotations are reported at annotations.<key> (Child, not Key), as kube does.
  const seccomp = annotations[SECCOMP_POD_ANNOTATION]
  if (seccomp !== undefined) errs.push(...validateSeccompAnnotationValue(seccomp, annotationsPath.child(SECCOMP_POD_ANNOTATION)))
  for (const [k, v] of Object.entries(annotations)) {
    if (k.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...validateSeccompAnnotationValue(v, annotationsPath.child(k)))
  }
  const names = new Set(allContainers(spec).map(([c]) => c.name))
  for (const [k, v] of Object.entries(annotations)) {
    if (!k.startsWith(APPARMOR_ANNOTATION_PREFIX)) continue
    const container = k.slice(APPARMOR_ANNOTATION_PREFIX.length)
    const at = annotationsPath.key(k).toString()
    if (!names.has(container)) errs.push(fieldError.invalid(at, container, 'container not found'))
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/')) {
      errs.push(fieldError.invalid(at, v, `invalid AppArmor profile name: ${goQuote(v)}`))
    }
  }
  return errs
}

/** validateSeccompAnnotationsAndFields: where both are set, the legacy annotation must agree with the field. */
function validateSeccompAnnotationsAndFields(meta: ObjectMeta, spec: PodSpec): FieldError[] {
  const errs: FieldError[] = []
  const annotations = meta.annotations ?? {}
  const check = (annotation: string, field: { type: string; localhostProfile?: string }, path: FieldPath) => {
    const mismatch = () => errs.push(fieldError.forbidden(path.child('type').toString(), 'seccomp type in annotation and field must match'))
    if (field.type === 'Unconfined' && annotation !== 'unconfined') mismatch()
    else if (field.type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default') mismatch()
    else if (field.type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) mismatch()
      else if (field.localhostProfile === undefined || annotation.slice('localhost/'.length) !== field.localhostProfile) {
        errs.push(fieldError.forbidden(path.child('localhostProfile').toString(), 'seccomp profile in annotation and field must match'))
      }
    }
  }
  const podProfile = spec.securityContext?.seccompProfile
  const podAnnotation = annotations[SECCOMP_POD_ANNOTATION]
  if (podProfile && podAnnotation !== undefined) check(podAnnotation, podProfile, specPath.child('securityContext').child('seccompProfile'))
  for (const [c, p] of allContainers(spec)) {
    const profile = c.securityContext?.seccompProfile
    const annotation = annotations[SECCOMP_CONTAINER_PREFIX + c.name]
    if (profile && annotation !== undefined) check(annotation, profile, p.child('securityContext').child('seccompProfile'))
  }
  return errs
}

/** validateAppArmorAnnotationsAndFieldsMatchOnCreate. */
function validateAppArmorAnnotationsAndFieldsMatchOnCreate(meta: ObjectMeta, spec: PodSpec): FieldError[] {
  if (spec.os?.name === 'windows') return []
  const errs: FieldError[] = []
  const annotations = meta.annotations ?? {}
  const podProfile = spec.securityContext?.appArmorProfile
  for (const [c, p] of allContainers(spec)) {
    const profile = c.securityContext?.appArmorProfile ?? podProfile
    const annotation = annotations[APPARMOR_ANNOTATION_PREFIX + c.name]
    if (!profile || annotation === undefined) continue
    const ap = p.child('securityContext').child('appArmorProfile')
    const mismatch = () => errs.push(fieldError.forbidden(ap.child('type').toString(), 'apparmor type in annotation and field must match'))
    if (profile.type === 'Unconfined' && annotation !== 'unconfined') mismatch()
    else if (profile.type === 'RuntimeDefault' && annotation !== 'runtime/default') mismatch()
    else if (profile.type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) mismatch()
      else if (profile.localhostProfile === undefined || annotation.slice('localhost/'.length) !== profile.localhostProfile) {
        errs.push(fieldError.forbidden(ap.child('localhostProfile').toString(), 'apparmor profile in annotation and field must match'))
      }
    }
  }
  return errs
}

// ---------------------------------------------------------------------------------------------------------------
// ValidatePodSpec

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never']
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never']

/** ValidatePodSpec. podMeta carries the pod name generic ephemeral volumes derive claim names from. */
export function validatePodSpec(spec: PodSpec, podMeta: ObjectMeta | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (spec.terminationGracePeriodSeconds === undefined) errs.push(fieldError.required(path.child('terminationGracePeriodSeconds').toString()))
  const hostUsers = spec.hostUsers !== false
  const volumes = validateVolumes(list(spec.volumes), podMeta, path.child('volumes'))
  errs.push(...volumes.errors)
  const claimNames = new Set(list(spec.resourceClaims).map((c) => c.name).filter((n) => n !== ''))
  errs.push(...validatePodResourceClaims(spec, path.child('resourceClaims')))
  const ctx: ContainerContext = {
    volumes: volumes.volumes,
    podClaimNames: claimNames,
    gracePeriod: spec.terminationGracePeriodSeconds,
    podRestartPolicy: str(spec.restartPolicy),
    hostUsers,
  }
  const containers = list(spec.containers)
  const initContainers = list(spec.initContainers)
  errs.push(...validateContainers(containers, ctx, path.child('containers')))
  errs.push(...validateInitContainers(initContainers, containers, ctx, path.child('initContainers')))
  errs.push(...validateEphemeralContainers(list(spec.ephemeralContainers), containers, initContainers, ctx, path.child('ephemeralContainers')))
  errs.push(...validatePodHostNetworkDeps(spec, path))
  errs.push(...validateEnum(str(spec.restartPolicy), RESTART_POLICIES, path.child('restartPolicy')))
  errs.push(...validateEnum(str(spec.dnsPolicy), DNS_POLICIES, path.child('dnsPolicy')))
  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')))
  errs.push(...validatePodSecurityContext(spec, path.child('securityContext')))
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')))
  errs.push(...validatePodDNSConfig(spec.dnsConfig, str(spec.dnsPolicy), path.child('dnsConfig')))
  list(spec.readinessGates).forEach((gate, i) => {
    errs.push(...validateQualifiedName(str(gate.conditionType), path.child('readinessGates').index(i).child('conditionType')))
  })
  const gates = new Set<string>()
  list(spec.schedulingGates).forEach((gate, i) => {
    // Reported at schedulingGates[i], not schedulingGates[i].name, as kube does.
    errs.push(...validateQualifiedName(str(gate.name), path.child('schedulingGates').index(i)))
    if (gates.has(gate.name)) errs.push(fieldError.duplicate(path.child('schedulingGates').index(i).toString(), gate.name))
    gates.add(gate.name)
  })
  errs.push(...validateTopologySpreadConstraints(list(spec.topologySpreadConstraints), path.child('topologySpreadConstraints')))
  errs.push(...validateWindowsHostProcessPod(spec, path))
  if (!hostUsers) {
    // Kube names the last two with Go's field names.
    if (spec.hostNetwork) errs.push(fieldError.forbidden(path.child('hostNetwork').toString(), 'when `pod.Spec.HostUsers` is false'))
    if (spec.hostPID) errs.push(fieldError.forbidden(path.child('HostPID').toString(), 'when `pod.Spec.HostUsers` is false'))
    if (spec.hostIPC) errs.push(fieldError.forbidden(path.child('HostIPC').toString(), 'when `pod.Spec.HostUsers` is false'))
  }
  const subdomainField = (key: 'serviceAccountName' | 'nodeName' | 'priorityClassName') => {
    const value = spec[key]
    if (value) errs.push(...nameIsSubdomain(value, false).map((m) => fieldError.invalid(path.child(key).toString(), value, m)))
  }
  subdomainField('serviceAccountName')
  subdomainField('nodeName')
  if (spec.activeDeadlineSeconds !== undefined) {
    const value = spec.activeDeadlineSeconds
    if (value < 1 || value > MAX_INT32) {
      errs.push(fieldError.invalid(path.child('activeDeadlineSeconds').toString(), value, inclusiveRangeError(1, MAX_INT32)))
    }
  }
  if (spec.hostname) errs.push(...validateDNS1123Label(spec.hostname, path.child('hostname')))
  if (spec.subdomain) errs.push(...validateDNS1123Label(spec.subdomain, path.child('subdomain')))
  errs.push(...validateTolerations(list(spec.tolerations), path.child('tolerations')))
  list(spec.hostAliases).forEach((alias, i) => {
    const ap = path.child('hostAliases').index(i)
    errs.push(...validateIP(str(alias.ip), ap.child('ip')))
    list(alias.hostnames).forEach((h, j) => {
      errs.push(...nameIsSubdomain(h, false).map((m) => fieldError.invalid(ap.child('hostnames').index(j).toString(), h, m)))
    })
  })
  subdomainField('priorityClassName')
  if (spec.runtimeClassName !== undefined) {
    const name = spec.runtimeClassName
    errs.push(...nameIsSubdomain(name, false).map((m) => fieldError.invalid(path.child('runtimeClassName').toString(), name, m)))
  }
  if (spec.preemptionPolicy !== undefined) {
    errs.push(...validateEnum(spec.preemptionPolicy, PREEMPTION_POLICIES, path.child('preemptionPolicy')))
  }
  if (spec.overhead !== undefined) {
    // Reuses the container rules: errors read spec.overhead.limits[...].
    errs.push(...validateResourceRequirements({ limits: spec.overhead }, claimNames, path.child('overhead')))
  }
  if (spec.os !== undefined) errs.push(...validateOS(spec, path))
  return errs
}

/** Required for "", NotSupported outside the listed values (kube's order, not sorted). */
function validateEnum(value: string, allowed: readonly string[], path: FieldPath): FieldError[] {
  if (value === '') return [fieldError.required(path.toString())]
  if (!allowed.includes(value)) return [fieldError.notSupported(path.toString(), value, allowed)]
  return []
}

function validatePodResourceClaims(spec: PodSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const names = new Set<string>()
  list(spec.resourceClaims).forEach((claim, i) => {
    const p = path.index(i)
    if (!claim.name) errs.push(fieldError.required(p.child('name').toString()))
    else if (names.has(claim.name)) errs.push(fieldError.duplicate(p.child('name').toString(), claim.name))
    else {
      errs.push(...validateDNS1123Label(claim.name, p.child('name')))
      names.add(claim.name)
    }
    const goClaim = goStruct('core.PodResourceClaim', [
      ['Name', goQuote(str(claim.name))],
      ['ResourceClaimName', goPtr('*string', claim.resourceClaimName)],
      ['ResourceClaimTemplateName', goPtr('*string', claim.resourceClaimTemplateName)],
    ])
    if (claim.resourceClaimName !== undefined && claim.resourceClaimTemplateName !== undefined) {
      errs.push(invalidGo(p.toString(), goClaim, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'))
    }
    if (claim.resourceClaimName === undefined && claim.resourceClaimTemplateName === undefined) {
      errs.push(invalidGo(p.toString(), goClaim, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'))
    }
    for (const key of ['resourceClaimName', 'resourceClaimTemplateName'] as const) {
      const value = claim[key]
      if (value !== undefined) errs.push(...nameIsSubdomain(value, false).map((m) => fieldError.invalid(p.child(key).toString(), value, m)))
    }
  })
  return errs
}

/** validatePodHostNetworkDeps: on the host network, a pod's container ports are its host ports. */
function validatePodHostNetworkDeps(spec: PodSpec, path: FieldPath): FieldError[] {
  if (!spec.hostNetwork) return []
  const errs: FieldError[] = []
  list(spec.containers).forEach((c, i) => {
    list(c.ports).forEach((port, j) => {
      const hostPort = port.hostPort ?? 0
      if (hostPort !== port.containerPort) {
        const at = path.child('containers').index(i).child('ports').index(j).child('hostPort').toString()
        errs.push(fieldError.invalid(at, hostPort, 'must match `containerPort` when `hostNetwork` is true'))
      }
    })
  })
  return errs
}

const SYSCTL_RE = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/
const SYSCTL_RE_TEXT = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$'

/** utilsysctl.GetNamespace: which host namespace a namespaced sysctl belongs to. */
function sysctlNamespace(name: string): 'net' | 'ipc' | '' {
  const n = name.replaceAll('/', '.')
  if (n.startsWith('net.')) return 'net'
  if (['kernel.shmmax', 'kernel.shmall', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.sem'].includes(n)) return 'ipc'
  if (n.startsWith('fs.mqueue.')) return 'ipc'
  return ''
}

/**
 * validatePodSpecSecurityContext. Internally kube keeps hostNetwork, hostPID, hostIPC and shareProcessNamespace in the
 * security context, which is why the shareProcessNamespace error reads spec.securityContext.shareProcessNamespace.
 */
function validatePodSecurityContext(spec: PodSpec, path: FieldPath): FieldError[] {
  const sc: PodSecurityContext | undefined = spec.securityContext
  if (!sc) return []
  const errs: FieldError[] = []
  const id = (key: 'fsGroup' | 'runAsUser' | 'runAsGroup') => {
    const value = sc[key]
    if (value !== undefined) errs.push(...isValidUnixID(value).map((m) => fieldError.invalid(path.child(key).toString(), value, m)))
  }
  id('fsGroup')
  id('runAsUser')
  id('runAsGroup')
  list(sc.supplementalGroups).forEach((gid, g) => {
    errs.push(...isValidUnixID(gid).map((m) => fieldError.invalid(path.child('supplementalGroups').index(g).toString(), gid, m)))
  })
  if (spec.shareProcessNamespace === true && spec.hostPID) {
    errs.push(fieldError.invalid(path.child('shareProcessNamespace').toString(), true, 'ShareProcessNamespace and HostPID cannot both be enabled'))
  }
  const sysctls = new Set<string>()
  list(sc.sysctls).forEach((s, i) => {
    const at = path.child('sysctls').index(i).child('name').toString()
    if (!s.name) errs.push(fieldError.required(at))
    else if (s.name.length > 253 || !SYSCTL_RE.test(s.name)) {
      errs.push(fieldError.invalid(at, s.name, `must have at most 253 characters and match regex ${SYSCTL_RE_TEXT}`))
    } else if (sysctls.has(s.name)) errs.push(fieldError.duplicate(at, s.name))
    const ns = sysctlNamespace(str(s.name))
    if (spec.hostNetwork && ns === 'net') errs.push(fieldError.invalid(at, s.name, "may not be specified when 'hostNetwork' is true"))
    else if (spec.hostIPC && ns === 'ipc') errs.push(fieldError.invalid(at, s.name, "may not be specified when 'hostIPC' is true"))
    sysctls.add(s.name)
  })
  if (sc.fsGroupChangePolicy !== undefined && !['Always', 'OnRootMismatch'].includes(sc.fsGroupChangePolicy)) {
    errs.push(fieldError.notSupported(path.child('fsGroupChangePolicy').toString(), sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']))
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile')))
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')))
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, path.child('appArmorProfile')))
  if (sc.supplementalGroupsPolicy !== undefined && !['Merge', 'Strict'].includes(sc.supplementalGroupsPolicy)) {
    errs.push(fieldError.notSupported(path.child('supplementalGroupsPolicy').toString(), sc.supplementalGroupsPolicy, ['Merge', 'Strict']))
  }
  if (sc.seLinuxChangePolicy !== undefined && !['MountOption', 'Recursive'].includes(sc.seLinuxChangePolicy)) {
    errs.push(fieldError.notSupported(path.child('seLinuxChangePolicy').toString(), sc.seLinuxChangePolicy, ['MountOption', 'Recursive']))
  }
  return errs
}

const MAX_DNS_NAMESERVERS = 3
const MAX_DNS_SEARCH_PATHS = 32
const MAX_DNS_SEARCH_LIST_CHARS = 2048
const DNS_LABEL_US = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?'
const DNS_SUBDOMAIN_US = `${DNS_LABEL_US}(\\.${DNS_LABEL_US})*`
const DNS_SUBDOMAIN_US_RE = new RegExp(`^${DNS_SUBDOMAIN_US}$`)

/** IsDNS1123SubdomainWithUnderscore (RelaxedDNSSearchValidation is beta and on in 1.33). */
function validateSearchDomain(search: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const at = path.toString()
  if (new TextEncoder().encode(search).length > 253) errs.push(fieldError.invalid(at, search, 'must be no more than 253 characters'))
  if (!DNS_SUBDOMAIN_US_RE.test(search)) {
    const msg =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character"
    errs.push(fieldError.invalid(at, search, `${msg} (e.g. 'example.com', regex used for validation is '${DNS_SUBDOMAIN_US}')`))
  }
  return errs
}

/** validatePodDNSConfig. */
function validatePodDNSConfig(config: PodDNSConfig | undefined, dnsPolicy: string, path: FieldPath): FieldError[] {
  if (dnsPolicy === 'None') {
    if (!config) return [fieldError.required(path.toString(), 'must provide `dnsConfig` when `dnsPolicy` is None')]
    if (list(config.nameservers).length === 0) {
      return [fieldError.required(path.child('nameservers').toString(), 'must provide at least one DNS nameserver when `dnsPolicy` is None')]
    }
  }
  if (!config) return []
  const errs: FieldError[] = []
  const nameservers = list(config.nameservers)
  if (nameservers.length > MAX_DNS_NAMESERVERS) {
    errs.push(fieldError.invalid(path.child('nameservers').toString(), nameservers, `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`))
  }
  nameservers.forEach((ns, i) => errs.push(...validateIP(ns, path.child('nameservers').index(i))))
  const searches = list(config.searches)
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    errs.push(fieldError.invalid(path.child('searches').toString(), searches, `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`))
  }
  if (searches.join(' ').length > MAX_DNS_SEARCH_LIST_CHARS) {
    errs.push(fieldError.invalid(path.child('searches').toString(), searches, `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`))
  }
  searches.forEach((search, i) => {
    if (search !== '.') errs.push(...validateSearchDomain(search.endsWith('.') ? search.slice(0, -1) : search, path.child('searches').index(i)))
  })
  list(config.options).forEach((option, i) => {
    if (!option.name) errs.push(fieldError.required(path.child('options').index(i).toString(), 'must not be empty'))
  })
  return errs
}

/** validateWindowsHostProcessPod: all or no containers are host processes, and they need the host network. */
function validateWindowsHostProcessPod(spec: PodSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const podHostProcess = spec.securityContext?.windowsOptions?.hostProcess
  let count = 0
  let hostProcessCount = 0
  for (const [c, p] of allContainers(spec)) {
    count++
    const own = c.securityContext?.windowsOptions?.hostProcess
    if (podHostProcess !== undefined && own !== undefined && podHostProcess !== own) {
      errs.push(fieldError.invalid(p.child('securityContext').child('windowsOptions').child('hostProcess').toString(), own, `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`))
    }
    if (own === true || (own === undefined && podHostProcess === true)) hostProcessCount++
  }
  if (hostProcessCount > 0) {
    if (hostProcessCount !== count) {
      errs.push(fieldError.invalid(path.toString(), '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'))
    }
    if (!spec.hostNetwork) {
      errs.push(fieldError.invalid(path.child('hostNetwork').toString(), false, 'hostNetwork must be true if pod contains any hostProcess containers'))
    }
  }
  return errs
}

/** validateOS plus the per-OS restrictions (validateLinux, validateWindows). */
function validateOS(spec: PodSpec, path: FieldPath): FieldError[] {
  const os = spec.os!
  const osPath = path.child('os')
  if (!os.name) return [fieldError.required(osPath.child('name').toString(), 'cannot be empty')]
  if (os.name !== 'linux' && os.name !== 'windows') return [fieldError.notSupported(osPath.toString(), os.name, ['linux', 'windows'])]
  const errs: FieldError[] = []
  const sc = spec.securityContext
  const scPath = path.child('securityContext')
  if (os.name === 'linux') {
    const detail = 'windows options cannot be set for a linux pod'
    if (sc?.windowsOptions) errs.push(fieldError.forbidden(scPath.child('windowsOptions').toString(), detail))
    for (const [c, p] of allContainers(spec)) {
      if (c.securityContext?.windowsOptions) errs.push(fieldError.forbidden(p.child('securityContext').child('windowsOptions').toString(), detail))
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
    for (const key of ['seccompProfile', 'fsGroup', 'fsGroupChangePolicy'] as const) if (sc[key] !== undefined) forbid(scPath.child(key))
    if (list(sc.sysctls).length > 0) forbid(scPath.child('sysctls'))
  }
  if (spec.shareProcessNamespace !== undefined) forbid(path.child('shareProcessNamespace'))
  if (sc) {
    for (const key of ['runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'] as const) {
      if (sc[key] !== undefined) forbid(scPath.child(key))
    }
  }
  for (const [c, p] of allContainers(spec)) {
    const csc = c.securityContext
    if (!csc) continue
    const cp = p.child('securityContext')
    for (const key of [
      'appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged',
      'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup',
    ] as const) {
      if (csc[key] !== undefined) forbid(cp.child(key))
    }
  }
  return errs
}
