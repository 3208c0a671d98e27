// Container validation (validateContainers, validateInitContainers, validateEphemeralContainers and the rules every
// container kind shares), after kube-apiserver 1.33 pkg/apis/core/validation. What a container embeds has its own
// file: ports (pod-validation-ports.ts), env and envFrom (pod-validation-env.ts), mounts and devices
// (pod-validation-mounts.ts), probes and lifecycle hooks (pod-validation-probes.ts), resources
// (pod-validation-resources.ts). Security contexts live in pod-validation-security.ts.
import { fieldError, type FieldError, FieldPath } from '../../field-errors'
import { list, str, validateDNS1123Label } from './pod-validation-formats'
import { validateSecurityContext } from './pod-validation-security'
import { checkHostPortConflicts, validateContainerPorts } from './pod-validation-ports'
import { validateEnv, validateEnvFrom } from './pod-validation-env'
import { validateVolumeDevices, validateVolumeMounts } from './pod-validation-mounts'
import {
  validateLifecycle,
  validateLivenessProbe,
  validateReadinessProbe,
  validateStartupProbe,
} from './pod-validation-probes'
import { validateResizePolicy, validateResourceRequirements } from './pod-validation-resources'
import type { AnyContainer, Container, EphemeralContainer, PodSpec, Volume } from './pod-types'

const specPath = new FieldPath('spec')

/** VisitContainersWithPath order: init, regular, ephemeral. */
export function allContainers(spec: PodSpec): [AnyContainer, FieldPath][] {
  return [
    ...list(spec.initContainers).map(
      (c, i) => [c, specPath.child('initContainers').index(i)] as [AnyContainer, FieldPath],
    ),
    ...list(spec.containers).map((c, i) => [c, specPath.child('containers').index(i)] as [AnyContainer, FieldPath]),
    ...list(spec.ephemeralContainers).map(
      (c, i) => [c, specPath.child('ephemeralContainers').index(i)] as [AnyContainer, FieldPath],
    ),
  ]
}

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
export function validateContainers(
  containers: readonly Container[],
  ctx: ContainerContext,
  path: FieldPath,
): FieldError[] {
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
  ['name', true],
  ['image', true],
  ['command', true],
  ['args', true],
  ['workingDir', true],
  ['ports', false],
  ['envFrom', true],
  ['env', true],
  ['resources', false],
  ['resizePolicy', false],
  ['restartPolicy', false],
  ['volumeMounts', true],
  ['volumeDevices', true],
  ['livenessProbe', false],
  ['readinessProbe', false],
  ['startupProbe', false],
  ['lifecycle', false],
  ['terminationMessagePath', true],
  ['terminationMessagePolicy', true],
  ['imagePullPolicy', true],
  ['securityContext', true],
  ['stdin', true],
  ['stdinOnce', true],
  ['tty', true],
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
      if (vm.subPath)
        errs.push(fieldError.forbidden(mp.child('subPath').toString(), 'cannot be set for an Ephemeral Container'))
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
    errs.push(
      fieldError.notSupported(path.child('terminationMessagePolicy').toString(), tmp, [
        'File',
        'FallbackToLogsOnError',
      ]),
    )
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
