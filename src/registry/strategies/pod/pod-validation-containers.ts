// Container validation (validateContainers, validateInitContainers, validateEphemeralContainers and everything a
// container embeds: ports, env, mounts, devices, probes, lifecycle hooks, resources), after kube-apiserver 1.33
// pkg/apis/core/validation. Security contexts live in pod-validation-security.ts.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { parseQuantity } from '../../../schema/quantity'
import {
  IS_NEGATIVE_ERROR_MSG, cmpQuantity, isConfigMapKey, isHTTPHeaderName, isHugePageResourceName,
  isHugePageValueDivisible, isOvercommitAllowed, isRelaxedEnvVarName, isValidPortName, isValidPortNum, list,
  nameIsSubdomain, notFoundWithDetail,
  quantityString, str, validateContainerResourceName, validateDNS1123Label, validatePortNumOrName,
  validateQualifiedName, validateResourceQuantityValue,
} from './pod-validation-formats'
import { validateSecurityContext } from './pod-validation-security'
import type {
  AnyContainer, Container, EnvFromSource, EnvVar, EphemeralContainer, HTTPGetAction, Lifecycle, LifecycleHandler,
  ObjectFieldSelector, Probe, ResourceFieldSelector, ResourceRequirements, Volume, VolumeMount,
} from './pod-types'

/** What container validation needs to know about the rest of the pod. */
export interface ContainerContext {
  /** The volumes that validated cleanly, by name (ValidateVolumes' map). */
  volumes: Map<string, Volume>
  /** Names in spec.resourceClaims. */
  podClaimNames: Set<string>
  gracePeriod: number | undefined
  podRestartPolicy: string
  /** spec.hostUsers, true when unset. */
  hostUsers: boolean
}

type Ctr = AnyContainer

// ---------------------------------------------------------------------------------------------------------------
// The three container lists

/** validateContainers: the regular containers. */
export function validateContainers(containers: readonly Container[], ctx: ContainerContext, path: FieldPath): FieldError[] {
  if (containers.length === 0) return [fieldError.required(path.toString())]
  const errs: FieldError[] = []
  const names = new Set<string>()
  containers.forEach((ctr, i) => {
    const p = path.index(i)
    errs.push(...validateContainerCommon(ctr, ctx, p))
    // Collisions with init and ephemeral containers are reported on those.
    const name = str(ctr.name)
    if (names.has(name)) errs.push(fieldError.duplicate(p.child('name').toString(), name))
    else names.add(name)
    if (ctr.lifecycle) errs.push(...validateLifecycle(ctr.lifecycle, ctx.gracePeriod, p.child('lifecycle')))
    errs.push(...validateLivenessProbe(ctr.livenessProbe, ctx.gracePeriod, p.child('livenessProbe')))
    errs.push(...validateReadinessProbe(ctr.readinessProbe, ctx.gracePeriod, p.child('readinessProbe')))
    errs.push(...validateStartupProbe(ctr.startupProbe, ctx.gracePeriod, p.child('startupProbe')))
    if (ctr.restartPolicy !== undefined) {
      errs.push(fieldError.forbidden(p.child('restartPolicy').toString(), 'may not be set for non-init containers'))
    }
  })
  errs.push(...checkHostPortConflicts(containers, path))
  return errs
}

/** validateInitContainers: init containers, sidecars (restartPolicy: Always) included. */
export function validateInitContainers(
  initContainers: readonly Container[],
  containers: readonly Container[],
  ctx: ContainerContext,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const names = new Set(containers.map((c) => str(c.name)))
  initContainers.forEach((ctr, i) => {
    const p = path.index(i)
    errs.push(...validateContainerCommon(ctr, ctx, p))
    let restartAlways = false
    if (ctr.restartPolicy !== undefined) {
      if (ctr.restartPolicy !== 'Always') {
        errs.push(fieldError.notSupported(p.child('restartPolicy').toString(), ctr.restartPolicy, ['Always']))
      }
      restartAlways = ctr.restartPolicy === 'Always'
    }
    const name = str(ctr.name)
    if (names.has(name)) errs.push(fieldError.duplicate(p.child('name').toString(), name))
    else if (name.length > 0) names.add(name)
    // Init containers run one at a time, so host ports only conflict within one; kube reports them at index 0.
    errs.push(...checkHostPortConflicts([ctr], path))
    if (restartAlways) {
      if (ctr.lifecycle) errs.push(...validateLifecycle(ctr.lifecycle, ctx.gracePeriod, p.child('lifecycle')))
      errs.push(...validateLivenessProbe(ctr.livenessProbe, ctx.gracePeriod, p.child('livenessProbe')))
      errs.push(...validateReadinessProbe(ctr.readinessProbe, ctx.gracePeriod, p.child('readinessProbe')))
      errs.push(...validateStartupProbe(ctr.startupProbe, ctx.gracePeriod, p.child('startupProbe')))
    } else {
      const detail = 'may not be set for init containers without restartPolicy=Always'
      for (const key of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (ctr[key] !== undefined) errs.push(fieldError.forbidden(p.child(key).toString(), detail))
      }
    }
  })
  return errs
}

// EphemeralContainerCommon fields in struct order, and whether an ephemeral container may set them.
const EPHEMERAL_FIELDS: [keyof EphemeralContainer, boolean][] = [
  ['name', true], ['image', true], ['command', true], ['args', true], ['workingDir', true], ['ports', false],
  ['envFrom', true], ['env', true], ['resources', false], ['resizePolicy', false], ['restartPolicy', false],
  ['volumeMounts', true], ['volumeDevices', true], ['livenessProbe', false], ['readinessProbe', false],
  ['startupProbe', false], ['lifecycle', false], ['terminationMessagePath', true], ['terminationMessagePolicy', true],
  ['imagePullPolicy', true], ['securityContext', true], ['stdin', true], ['stdinOnce', true], ['tty', true],
]

/** Whether a field differs from its Go zero value. */
function isSet(value: unknown): boolean {
  if (value === undefined || value === false || value === 0 || value === '') return false
  if (Array.isArray(value)) return value.length > 0
  if (value && typeof value === 'object') return Object.values(value).some((v) => v !== undefined)
  return true
}

/** validateEphemeralContainers. */
export function validateEphemeralContainers(
  ephemeral: readonly EphemeralContainer[],
  containers: readonly Container[],
  initContainers: readonly Container[],
  ctx: ContainerContext,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const others = new Set([...containers, ...initContainers].map((c) => str(c.name)))
  const all = new Set(others)
  ephemeral.forEach((ec, i) => {
    const p = path.index(i)
    errs.push(...validateContainerCommon(ec, ctx, p))
    errs.push(...validateContainerOnlyForPod(ec, p))
    const name = str(ec.name)
    if (all.has(name)) errs.push(fieldError.duplicate(p.child('name').toString(), name))
    else all.add(name)
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) {
      errs.push(fieldError.notFound(p.child('targetContainerName').toString(), ec.targetContainerName))
    }
    // Ephemeral containers may not carry what a workload relies on: ports, probes, resources, lifecycle.
    for (const [key, allowed] of EPHEMERAL_FIELDS) {
      if (!allowed && isSet(ec[key])) {
        errs.push(fieldError.forbidden(p.child(key).toString(), 'cannot be set for an Ephemeral Container'))
      }
    }
    list(ec.volumeMounts).forEach((vm, j) => {
      const mp = p.child('volumeMounts').index(j)
      if (vm.subPath) errs.push(fieldError.forbidden(mp.child('subPath').toString(), 'cannot be set for an Ephemeral Container'))
      if (vm.subPathExpr) {
        errs.push(fieldError.forbidden(mp.child('subPathExpr').toString(), 'cannot be set for an Ephemeral Container'))
      }
    })
  })
  return errs
}

/** validateContainerOnlyForPod: pods (not templates) may not pad image names with whitespace. */
export function validateContainerOnlyForPod(ctr: Ctr, path: FieldPath): FieldError[] {
  const image = str(ctr.image)
  if (image.length !== goTrimSpace(image).length) {
    return [fieldError.invalid(path.child('image').toString(), image, 'must not have leading or trailing whitespace')]
  }
  return []
}

/** strings.TrimSpace: Unicode White_Space, which JavaScript's trim also strips. */
export const goTrimSpace = (s: string) => s.trim()

/** validateContainerCommon: what every container kind must satisfy. */
function validateContainerCommon(ctr: Ctr, ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const namePath = path.child('name')
  if (!ctr.name) errs.push(fieldError.required(namePath.toString()))
  else errs.push(...validateDNS1123Label(ctr.name, namePath))
  if (!ctr.image) errs.push(fieldError.required(path.child('image').toString()))
  const tmp = str(ctr.terminationMessagePolicy)
  if (tmp === '') errs.push(fieldError.required(path.child('terminationMessagePolicy').toString()))
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push(fieldError.notSupported(path.child('terminationMessagePolicy').toString(), tmp, ['File', 'FallbackToLogsOnError']))
  }
  const mounts = new Map(list(ctr.volumeMounts).map((m) => [m.name, m.mountPath]))
  const devices = new Map(list(ctr.volumeDevices).map((d) => [d.name, d.devicePath]))
  errs.push(...validateContainerPorts(ctr, path.child('ports')))
  errs.push(...validateEnv(list(ctr.env), path.child('env')))
  errs.push(...validateEnvFrom(list(ctr.envFrom), path.child('envFrom')))
  errs.push(...validateVolumeMounts(ctr, devices, ctx.volumes, path.child('volumeMounts')))
  errs.push(...validateVolumeDevices(ctr, mounts, ctx.volumes, path.child('volumeDevices')))
  errs.push(...validatePullPolicy(str(ctr.imagePullPolicy), path.child('imagePullPolicy')))
  errs.push(...validateResourceRequirements(ctr.resources ?? {}, ctx.podClaimNames, path.child('resources')))
  errs.push(...validateResizePolicy(ctr, path.child('resizePolicy'), ctx.podRestartPolicy))
  errs.push(...validateSecurityContext(ctr.securityContext, path.child('securityContext'), ctx.hostUsers))
  return errs
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never']

/** validatePullPolicy: containers and image volumes. */
export function validatePullPolicy(policy: string, path: FieldPath): FieldError[] {
  if (policy === '') return [fieldError.required(path.toString())]
  if (!PULL_POLICIES.includes(policy)) return [fieldError.notSupported(path.toString(), policy, PULL_POLICIES)]
  return []
}

// ---------------------------------------------------------------------------------------------------------------
// Ports

const PROTOCOLS = ['SCTP', 'TCP', 'UDP']

function validateContainerPorts(ctr: Ctr, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const names = new Set<string>()
  list(ctr.ports).forEach((port, i) => {
    const p = path.index(i)
    const name = str(port.name)
    if (name.length > 0) {
      const msgs = isValidPortName(name)
      if (msgs.length > 0) errs.push(...msgs.map((m) => fieldError.invalid(p.child('name').toString(), name, m)))
      else if (names.has(name)) errs.push(fieldError.duplicate(p.child('name').toString(), name))
      else names.add(name)
    }
    const containerPort = port.containerPort ?? 0
    if (containerPort === 0) errs.push(fieldError.required(p.child('containerPort').toString()))
    else errs.push(...isValidPortNum(containerPort).map((m) => fieldError.invalid(p.child('containerPort').toString(), containerPort, m)))
    const hostPort = port.hostPort ?? 0
    if (hostPort !== 0) {
      errs.push(...isValidPortNum(hostPort).map((m) => fieldError.invalid(p.child('hostPort').toString(), hostPort, m)))
    }
    const protocol = str(port.protocol)
    if (protocol === '') errs.push(fieldError.required(p.child('protocol').toString()))
    else if (!PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(p.child('protocol').toString(), protocol, PROTOCOLS))
  })
  return errs
}

/** checkHostPortConflicts: protocol/hostIP/hostPort must be unique across the given containers. */
function checkHostPortConflicts(containers: readonly Ctr[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  containers.forEach((ctr, ci) => {
    list(ctr.ports).forEach((port, pi) => {
      const hostPort = port.hostPort ?? 0
      if (hostPort === 0) return
      const key = `${str(port.protocol)}/${str(port.hostIP)}/${hostPort}`
      const at = path.index(ci).child('ports').index(pi).child('hostPort').toString()
      if (seen.has(key)) errs.push(fieldError.duplicate(at, key))
      else seen.add(key)
    })
  })
  return errs
}

// ---------------------------------------------------------------------------------------------------------------
// Environment

const ENV_FIELD_PATHS = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
]
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid']
const RESOURCE_FIELD_PATHS = [
  'limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory',
]

/** ValidateEnv. */
export function validateEnv(vars: readonly EnvVar[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  vars.forEach((ev, i) => {
    const p = path.index(i)
    if (!ev.name) errs.push(fieldError.required(p.child('name').toString()))
    else errs.push(...isRelaxedEnvVarName(ev.name).map((m) => fieldError.invalid(p.child('name').toString(), ev.name, m)))
    errs.push(...validateEnvVarValueFrom(ev, p.child('valueFrom')))
  })
  return errs
}

function validateEnvVarValueFrom(ev: EnvVar, path: FieldPath): FieldError[] {
  const from = ev.valueFrom
  if (!from) return []
  const errs: FieldError[] = []
  let sources = 0
  if (from.fieldRef) {
    sources++
    errs.push(...validateObjectFieldSelector(from.fieldRef, ENV_FIELD_PATHS, path.child('fieldRef')))
  }
  if (from.resourceFieldRef) {
    sources++
    errs.push(...validateContainerResourceFieldSelector(from.resourceFieldRef, path.child('resourceFieldRef'), false))
  }
  if (from.configMapKeyRef) {
    sources++
    errs.push(...validateKeySelector(from.configMapKeyRef, path.child('configMapKeyRef')))
  }
  if (from.secretKeyRef) {
    sources++
    errs.push(...validateKeySelector(from.secretKeyRef, path.child('secretKeyRef')))
  }
  // fileKeyRef (EnvFiles) postdates 1.33; it counts as a source so a body that uses it is not misreported.
  if (from.fileKeyRef) sources++
  const at = path.toString()
  if (sources === 0) {
    errs.push(fieldError.invalid(at, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'))
  } else if (str(ev.value).length !== 0) {
    errs.push(fieldError.invalid(at, '', 'may not be specified when `value` is not empty'))
  } else if (sources > 1) {
    errs.push(fieldError.invalid(at, '', 'may not have more than one field specified at a time'))
  }
  return errs
}

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']`. */
function splitSubscript(fieldPath: string): [string, string] | null {
  if (!fieldPath.endsWith("']")) return null
  const s = fieldPath.slice(0, -2)
  const at = s.indexOf("['")
  if (at <= 0) return null
  return [s.slice(0, at), s.slice(at + 2)]
}

const DOWNWARD_LABELS = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
])

/** podshelper.ConvertDownwardAPIFieldLabel: the internal path, or its error. */
function convertDownwardAPIFieldLabel(version: string, label: string): { path: string } | { error: string } {
  if (version !== 'v1') return { error: `unsupported pod version: ${version}` }
  const sub = splitSubscript(label)
  if (sub) {
    if (sub[0] === 'metadata.annotations' || sub[0] === 'metadata.labels') return { path: label }
    return { error: `field label does not support subscript: ${label}` }
  }
  if (DOWNWARD_LABELS.has(label)) return { path: label }
  if (label === 'spec.host') return { path: 'spec.nodeName' }
  return { error: `field label not supported: ${label}` }
}

/** validateObjectFieldSelector: env and downward API fieldRefs. */
export function validateObjectFieldSelector(fs: ObjectFieldSelector, expressions: readonly string[], path: FieldPath): FieldError[] {
  const apiVersion = str(fs.apiVersion)
  const fieldPath = str(fs.fieldPath)
  if (apiVersion === '') return [fieldError.required(path.child('apiVersion').toString())]
  if (fieldPath === '') return [fieldError.required(path.child('fieldPath').toString())]
  const converted = convertDownwardAPIFieldLabel(apiVersion, fieldPath)
  if ('error' in converted) {
    return [fieldError.invalid(path.child('fieldPath').toString(), fieldPath, `error converting fieldPath: ${converted.error}`)]
  }
  const sub = splitSubscript(converted.path)
  if (sub) {
    const [p, subscript] = sub
    if (p === 'metadata.annotations') return validateQualifiedName(subscript.toLowerCase(), path)
    if (p === 'metadata.labels') return validateQualifiedName(subscript, path)
    return [fieldError.invalid(path.toString(), p, 'does not support subscript')]
  }
  if (!expressions.includes(converted.path)) {
    return [fieldError.notSupported(path.child('fieldPath').toString(), converted.path, [...expressions].sort())]
  }
  return []
}

const CPU_DIVISORS = new Set(['1m', '1'])
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'])

/** validateContainerResourceFieldSelector: env and downward API resourceFieldRefs. */
export function validateContainerResourceFieldSelector(fs: ResourceFieldSelector, path: FieldPath, volume: boolean): FieldError[] {
  const errs: FieldError[] = []
  const resource = str(fs.resource)
  if (volume && !fs.containerName) errs.push(fieldError.required(path.child('containerName').toString()))
  else if (resource === '') errs.push(fieldError.required(path.child('resource').toString()))
  else if (!RESOURCE_FIELD_PATHS.includes(resource) && !resource.startsWith('limits.hugepages-') && !resource.startsWith('requests.hugepages-')) {
    errs.push(fieldError.notSupported(path.child('resource').toString(), resource, RESOURCE_FIELD_PATHS))
  }
  if (fs.divisor !== undefined && (parseQuantity(fs.divisor)?.mantissa ?? 0n) !== 0n) {
    const divisor = quantityString(fs.divisor)
    const at = path.child('divisor').toString()
    const bytes = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei'
    if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !CPU_DIVISORS.has(divisor)) {
      errs.push(fieldError.invalid(at, resource, "only divisor's values 1m and 1 are supported with the cpu resource"))
    }
    if ((resource === 'limits.memory' || resource === 'requests.memory') && !BYTE_DIVISORS.has(divisor)) {
      errs.push(fieldError.invalid(at, resource, `only divisor's values ${bytes} are supported with the memory resource`))
    }
    if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !BYTE_DIVISORS.has(divisor)) {
      errs.push(fieldError.invalid(at, resource, `only divisor's values ${bytes} are supported with the local ephemeral storage resource`))
    }
    if ((resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) && !BYTE_DIVISORS.has(divisor)) {
      errs.push(fieldError.invalid(at, resource, `only divisor's values ${bytes} are supported with the hugepages resource`))
    }
  }
  return errs
}

/** validateConfigMapKeySelector / validateSecretKeySelector; kube checks the name even when it is empty. */
function validateKeySelector(s: { name?: string; key: string }, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const name = str(s.name)
  errs.push(...nameIsSubdomain(name, false).map((m) => fieldError.invalid(path.child('name').toString(), name, m)))
  if (!s.key) errs.push(fieldError.required(path.child('key').toString()))
  else errs.push(...isConfigMapKey(s.key).map((m) => fieldError.invalid(path.child('key').toString(), s.key, m)))
  return errs
}

/** ValidateEnvFrom. */
function validateEnvFrom(sources: readonly EnvFromSource[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  sources.forEach((ev, i) => {
    const p = path.index(i)
    const prefix = str(ev.prefix)
    if (prefix.length > 0) {
      errs.push(...isRelaxedEnvVarName(prefix).map((m) => fieldError.invalid(p.child('prefix').toString(), prefix, m)))
    }
    let n = 0
    for (const key of ['configMapRef', 'secretRef'] as const) {
      const ref = ev[key]
      if (!ref) continue
      n++
      const name = str(ref.name)
      const np = p.child(key).child('name').toString()
      if (name === '') errs.push(fieldError.required(np))
      else errs.push(...nameIsSubdomain(name, true).map((m) => fieldError.invalid(np, name, m)))
    }
    // Both errors name the list, not the entry, as kube does.
    if (n === 0) errs.push(fieldError.invalid(path.toString(), '', 'must specify one of: `configMapRef` or `secretRef`'))
    else if (n > 1) errs.push(fieldError.invalid(path.toString(), '', 'may not have more than one field specified at a time'))
  })
  return errs
}

// ---------------------------------------------------------------------------------------------------------------
// Mounts and devices

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
function validateVolumeMounts(ctr: Ctr, devices: Map<string, string>, volumes: Map<string, Volume>, path: FieldPath): FieldError[] {
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
    if (mountPoints.has(mountPath)) errs.push(fieldError.invalid(p.child('mountPath').toString(), mountPath, 'must be unique'))
    mountPoints.add(mountPath)
    if (devices.has(name)) errs.push(fieldError.invalid(p.child('name').toString(), name, 'must not already exist in volumeDevices'))
    if (devicePaths.has(mountPath)) {
      errs.push(fieldError.invalid(p.child('mountPath').toString(), mountPath, 'must not already exist as a path in volumeDevices'))
    }
    if (volumes.get(name)?.image) {
      if (mnt.subPath) errs.push(fieldError.invalid(p.child('subPath').toString(), mnt.subPath, 'not allowed in image volume sources'))
      if (mnt.subPathExpr) {
        errs.push(fieldError.invalid(p.child('subPathExpr').toString(), mnt.subPathExpr, 'not allowed in image volume sources'))
      }
    }
    if (mnt.subPath) errs.push(...validateLocalDescendingPath(mnt.subPath, path.child('subPath')))
    if (mnt.subPathExpr) {
      if (mnt.subPath) {
        errs.push(fieldError.invalid(p.child('subPathExpr').toString(), mnt.subPathExpr, 'subPathExpr and subPath are mutually exclusive'))
      }
      errs.push(...validateLocalDescendingPath(mnt.subPathExpr, path.child('subPathExpr')))
    }
    if (mnt.mountPropagation !== undefined) {
      const at = path.child('mountPropagation').toString()
      if (!PROPAGATIONS.includes(mnt.mountPropagation)) errs.push(fieldError.notSupported(at, mnt.mountPropagation, PROPAGATIONS))
      if (mnt.mountPropagation === 'Bidirectional' && ctr.securityContext?.privileged !== true) {
        errs.push(fieldError.forbidden(at, 'Bidirectional mount propagation is available only to privileged containers'))
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
function validateVolumeDevices(ctr: Ctr, mounts: Map<string, string>, volumes: Map<string, Volume>, path: FieldPath): FieldError[] {
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
      errs.push(fieldError.invalid(p.child('name').toString(), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'))
    }
    if (!volume) errs.push(fieldError.notFound(p.child('name').toString(), name))
    if (devPath === '') errs.push(fieldError.required(p.child('devicePath').toString()))
    if (devicePaths.has(devPath)) errs.push(fieldError.invalid(p.child('devicePath').toString(), devPath, 'must be unique'))
    if (devPath.length > 0 && devPath.split('/').includes('..')) {
      errs.push(fieldError.invalid(p.child('devicePath').toString(), devPath, "can not contain backsteps ('..')"))
    } else {
      devicePaths.add(devPath)
    }
    if (mounts.has(name)) errs.push(fieldError.invalid(p.child('name').toString(), name, 'must not already exist in volumeMounts'))
    if (mountPaths.has(devPath)) {
      errs.push(fieldError.invalid(p.child('devicePath').toString(), devPath, 'must not already exist as a path in volumeMounts'))
    }
    if (name.length > 0) deviceNames.add(name)
  })
  return errs
}

// ---------------------------------------------------------------------------------------------------------------
// Probes and lifecycle hooks

const SCHEMES = ['HTTP', 'HTTPS']

type Handler = Pick<Probe, 'exec' | 'httpGet' | 'tcpSocket' | 'grpc'> & { sleep?: LifecycleHandler['sleep'] }

/** validateHandler: exactly one of exec, httpGet, tcpSocket, grpc (probes) or sleep (hooks). */
function validateHandler(handler: Handler, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  let n = 0
  const one = (key: keyof Handler, check: () => FieldError[]) => {
    if (handler[key] === undefined) return
    if (n > 0) errs.push(fieldError.forbidden(path.child(key).toString(), 'may not specify more than 1 handler type'))
    else {
      n++
      errs.push(...check())
    }
  }
  one('exec', () => (list(handler.exec?.command).length === 0 ? [fieldError.required(path.child('exec').child('command').toString())] : []))
  one('httpGet', () => validateHTTPGetAction(handler.httpGet!, path.child('httpGet')))
  one('tcpSocket', () => validatePortNumOrName(handler.tcpSocket!.port ?? 0, path.child('tcpSocket').child('port')))
  one('grpc', () => validatePortNumOrName(handler.grpc!.port ?? 0, path.child('grpc').child('port')))
  one('sleep', () => {
    // PodLifecycleSleepActionAllowZero is beta and on in 1.33.
    const seconds = handler.sleep!.seconds ?? 0
    if (gracePeriod !== undefined && (seconds < 0 || seconds > gracePeriod)) {
      const detail = `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`
      return [fieldError.invalid(path.child('sleep').toString(), seconds, detail)]
    }
    return []
  })
  if (n === 0) errs.push(fieldError.required(path.toString(), 'must specify a handler type'))
  return errs
}

function validateHTTPGetAction(http: HTTPGetAction, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!http.path) errs.push(fieldError.required(path.child('path').toString()))
  errs.push(...validatePortNumOrName(http.port ?? 0, path.child('port')))
  const scheme = str(http.scheme)
  if (!SCHEMES.includes(scheme)) errs.push(fieldError.notSupported(path.child('scheme').toString(), scheme, SCHEMES))
  for (const header of list(http.httpHeaders)) {
    const name = str(header.name)
    errs.push(...isHTTPHeaderName(name).map((m) => fieldError.invalid(path.child('httpHeaders').toString(), name, m)))
  }
  return errs
}

function validateLifecycle(lifecycle: Lifecycle, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (lifecycle.postStart) errs.push(...validateHandler(lifecycle.postStart, gracePeriod, path.child('postStart')))
  if (lifecycle.preStop) errs.push(...validateHandler(lifecycle.preStop, gracePeriod, path.child('preStop')))
  return errs
}

function validateProbe(probe: Probe, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const errs = validateHandler({ exec: probe.exec, httpGet: probe.httpGet, tcpSocket: probe.tcpSocket, grpc: probe.grpc }, gracePeriod, path)
  for (const key of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    const value = probe[key] ?? 0
    if (value < 0) errs.push(fieldError.invalid(path.child(key).toString(), value, IS_NEGATIVE_ERROR_MSG))
  }
  if (probe.terminationGracePeriodSeconds !== undefined && probe.terminationGracePeriodSeconds <= 0) {
    errs.push(fieldError.invalid(path.child('terminationGracePeriodSeconds').toString(), probe.terminationGracePeriodSeconds, 'must be greater than 0'))
  }
  return errs
}

function validateLivenessProbe(probe: Probe | undefined, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  if (!probe) return []
  const errs = validateProbe(probe, gracePeriod, path)
  const success = probe.successThreshold ?? 0
  if (success !== 1) errs.push(fieldError.invalid(path.child('successThreshold').toString(), success, 'must be 1'))
  return errs
}

function validateReadinessProbe(probe: Probe | undefined, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  if (!probe) return []
  const errs = validateProbe(probe, gracePeriod, path)
  if (probe.terminationGracePeriodSeconds !== undefined) {
    errs.push(fieldError.invalid(path.child('terminationGracePeriodSeconds').toString(), probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'))
  }
  return errs
}

const validateStartupProbe = validateLivenessProbe

// ---------------------------------------------------------------------------------------------------------------
// Resources

/**
 * validateResourceRequirements with validateContainerResourceName: names, quantities, requests within limits (equal
 * for resources that cannot be overcommitted), hugepages, and claims that name spec.resourceClaims.
 */
export function validateResourceRequirements(req: ResourceRequirements, podClaimNames: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const limPath = path.child('limits')
  const reqPath = path.child('requests')
  const limits = req.limits ?? {}
  let limCpuOrMemory = false
  let reqCpuOrMemory = false
  let hugePages = false
  for (const [name, q] of Object.entries(limits)) {
    const p = limPath.key(name)
    errs.push(...validateContainerResourceName(name, p))
    errs.push(...validateResourceQuantityValue(name, q, p))
    if (isHugePageResourceName(name)) {
      hugePages = true
      if (!isHugePageValueDivisible(name, q)) {
        errs.push(fieldError.invalid(p.toString(), quantityString(q), `${quantityString(q)} is not positive integer multiple of ${name}`))
      }
    }
    if (name === 'cpu' || name === 'memory') limCpuOrMemory = true
  }
  for (const [name, q] of Object.entries(req.requests ?? {})) {
    const p = reqPath.key(name)
    errs.push(...validateContainerResourceName(name, p))
    errs.push(...validateResourceQuantityValue(name, q, p))
    const limit = limits[name]
    if (limit !== undefined) {
      const cmp = cmpQuantity(q, limit)
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(fieldError.invalid(reqPath.toString(), quantityString(q), `must be equal to ${name} limit of ${quantityString(limit)}`))
      } else if (cmp > 0) {
        errs.push(fieldError.invalid(reqPath.toString(), quantityString(q), `must be less than or equal to ${name} limit of ${quantityString(limit)}`))
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(fieldError.required(limPath.toString(), 'Limit must be set for non overcommitable resources'))
    }
    if (isHugePageResourceName(name)) {
      hugePages = true
      if (!isHugePageValueDivisible(name, q)) {
        errs.push(fieldError.invalid(p.toString(), quantityString(q), `${quantityString(q)} is not positive integer multiple of ${name}`))
      }
    }
    if (name === 'cpu' || name === 'memory') reqCpuOrMemory = true
  }
  if (!limCpuOrMemory && !reqCpuOrMemory && hugePages) errs.push(fieldError.forbidden(path.toString(), 'HugePages require cpu or memory'))
  errs.push(...validateResourceClaimNames(req.claims ?? [], podClaimNames, path.child('claims')))
  return errs
}

function validateResourceClaimNames(claims: readonly { name: string; request?: string }[], podClaimNames: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const names = new Set<string>()
  claims.forEach((claim, i) => {
    const p = path.index(i)
    const name = claim.name
    if (!name) {
      errs.push(fieldError.required(p.toString()))
      return
    }
    if (names.has(name)) errs.push(fieldError.duplicate(p.toString(), name))
    else {
      let key = name
      if (claim.request) {
        errs.push(...validateDNS1123Label(claim.request, p.child('request')))
        key += `/${claim.request}`
      }
      if (names.has(key)) errs.push(fieldError.duplicate(p.toString(), key))
      else if (!claim.request) {
        for (const existing of names) if (existing.startsWith(`${name}/`)) errs.push(fieldError.duplicate(p.toString(), name))
      }
      names.add(key)
    }
    if (!podClaimNames.has(name)) {
      const known = [...podClaimNames].sort()
      const detail = `must be one of the names in pod.spec.resourceClaims${known.length === 0 ? ' which is empty' : `: ${known.join(', ')}`}`
      errs.push(notFoundWithDetail(p.toString(), name, detail))
    }
  })
  return errs
}

/** validateResizePolicy (InPlacePodVerticalScaling is beta and on in 1.33). */
function validateResizePolicy(ctr: Ctr, path: FieldPath, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  const at = path.toString()
  list(ctr.resizePolicy).forEach((policy, i) => {
    const p = { ...policy, resourceName: str(policy.resourceName) }
    if (seen.has(p.resourceName)) errs.push(fieldError.duplicate(path.index(i).toString(), p.resourceName))
    seen.add(p.resourceName)
    if (p.resourceName === '') errs.push(fieldError.required(at))
    else if (p.resourceName !== 'cpu' && p.resourceName !== 'memory') errs.push(fieldError.notSupported(at, p.resourceName, ['cpu', 'memory']))
    const rp = str(p.restartPolicy)
    if (rp === '') errs.push(fieldError.required(at))
    else if (rp !== 'NotRequired' && rp !== 'RestartContainer') errs.push(fieldError.notSupported(at, rp, ['NotRequired', 'RestartContainer']))
    if (podRestartPolicy === 'Never' && rp !== 'NotRequired') {
      errs.push(fieldError.invalid(at, rp, "must be 'NotRequired' when `restartPolicy` is 'Never'"))
    }
  })
  return errs
}
