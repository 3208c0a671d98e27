// ValidatePodSpec, shared by pods and pod templates, after kube-apiserver 1.33 pkg/apis/core/validation. Each part of
// the spec with rules of its own is validated in its file: volumes, containers, security contexts, scheduling, DNS,
// the pod's OS.
import { fieldError, type FieldPath, type FieldError } from '../../field-errors'
import { validateLabels } from '../../validation/object-meta'
import type { ObjectMeta } from '../../../schema/meta'
import { goQuote } from '../../go-strings'
import {
  MAX_INT32,
  goPtr,
  goStruct,
  inclusiveRangeError,
  invalidGo,
  list,
  nameIsSubdomain,
  str,
  validateDNS1123Label,
  validateIP,
  validateQualifiedName,
} from './pod-validation-formats'
import {
  validateContainers,
  validateEphemeralContainers,
  validateInitContainers,
  type ContainerContext,
} from './pod-validation-containers'
import { validateResourceRequirements } from './pod-validation-resources'
import { validatePodSecurityContext } from './pod-validation-security'
import { validateVolumes } from './pod-validation-volumes'
import { validateAffinity } from './pod-validation-affinity'
import { validateTolerations, validateTopologySpreadConstraints } from './pod-validation-scheduling'
import { validatePodDNSConfig } from './pod-validation-dns'
import { validateOS, validateWindowsHostProcessPod } from './pod-validation-os'
import type { PodSpec } from './pod-types'

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never']
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never']

/** ValidatePodSpec. podMeta carries the pod name generic ephemeral volumes derive claim names from. */
export function validatePodSpec(spec: PodSpec, podMeta: ObjectMeta | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (spec.terminationGracePeriodSeconds === undefined)
    errs.push(fieldError.required(path.child('terminationGracePeriodSeconds').toString()))
  const hostUsers = spec.hostUsers !== false
  const volumes = validateVolumes(list(spec.volumes), podMeta, path.child('volumes'))
  errs.push(...volumes.errors)
  const claimNames = new Set(
    list(spec.resourceClaims)
      .map((c) => c.name)
      .filter((n) => n !== ''),
  )
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
  errs.push(
    ...validateEphemeralContainers(
      list(spec.ephemeralContainers),
      containers,
      initContainers,
      ctx,
      path.child('ephemeralContainers'),
    ),
  )
  errs.push(...validatePodHostNetworkDeps(spec, path))
  errs.push(...validateEnum(str(spec.restartPolicy), RESTART_POLICIES, path.child('restartPolicy')))
  errs.push(...validateEnum(str(spec.dnsPolicy), DNS_POLICIES, path.child('dnsPolicy')))
  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')))
  errs.push(...validatePodSecurityContext(spec, path.child('securityContext')))
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')))
  errs.push(...validatePodDNSConfig(spec.dnsConfig, str(spec.dnsPolicy), path.child('dnsConfig')))
  list(spec.readinessGates).forEach((gate, i) => {
    errs.push(
      ...validateQualifiedName(str(gate.conditionType), path.child('readinessGates').index(i).child('conditionType')),
    )
  })
  const gates = new Set<string>()
  list(spec.schedulingGates).forEach((gate, i) => {
    // Reported at schedulingGates[i], not schedulingGates[i].name, as kube does.
    errs.push(...validateQualifiedName(str(gate.name), path.child('schedulingGates').index(i)))
    if (gates.has(gate.name))
      errs.push(fieldError.duplicate(path.child('schedulingGates').index(i).toString(), gate.name))
    gates.add(gate.name)
  })
  errs.push(
    ...validateTopologySpreadConstraints(list(spec.topologySpreadConstraints), path.child('topologySpreadConstraints')),
  )
  errs.push(...validateWindowsHostProcessPod(spec, path))
  if (!hostUsers) {
    // Kube names the last two with Go's field names.
    if (spec.hostNetwork)
      errs.push(fieldError.forbidden(path.child('hostNetwork').toString(), 'when `pod.Spec.HostUsers` is false'))
    if (spec.hostPID)
      errs.push(fieldError.forbidden(path.child('HostPID').toString(), 'when `pod.Spec.HostUsers` is false'))
    if (spec.hostIPC)
      errs.push(fieldError.forbidden(path.child('HostIPC').toString(), 'when `pod.Spec.HostUsers` is false'))
  }
  const subdomainField = (key: 'serviceAccountName' | 'nodeName' | 'priorityClassName') => {
    const value = spec[key]
    if (value)
      errs.push(...nameIsSubdomain(value, false).map((m) => fieldError.invalid(path.child(key).toString(), value, m)))
  }
  subdomainField('serviceAccountName')
  subdomainField('nodeName')
  if (spec.activeDeadlineSeconds !== undefined) {
    const value = spec.activeDeadlineSeconds
    if (value < 1 || value > MAX_INT32) {
      errs.push(
        fieldError.invalid(path.child('activeDeadlineSeconds').toString(), value, inclusiveRangeError(1, MAX_INT32)),
      )
    }
  }
  if (spec.hostname) errs.push(...validateDNS1123Label(spec.hostname, path.child('hostname')))
  if (spec.subdomain) errs.push(...validateDNS1123Label(spec.subdomain, path.child('subdomain')))
  errs.push(...validateTolerations(list(spec.tolerations), path.child('tolerations')))
  list(spec.hostAliases).forEach((alias, i) => {
    const ap = path.child('hostAliases').index(i)
    errs.push(...validateIP(str(alias.ip), ap.child('ip')))
    list(alias.hostnames).forEach((h, j) => {
      errs.push(
        ...nameIsSubdomain(h, false).map((m) => fieldError.invalid(ap.child('hostnames').index(j).toString(), h, m)),
      )
    })
  })
  subdomainField('priorityClassName')
  if (spec.runtimeClassName !== undefined) {
    const name = spec.runtimeClassName
    errs.push(
      ...nameIsSubdomain(name, false).map((m) =>
        fieldError.invalid(path.child('runtimeClassName').toString(), name, m),
      ),
    )
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
      errs.push(
        invalidGo(
          p.toString(),
          goClaim,
          'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
        ),
      )
    }
    if (claim.resourceClaimName === undefined && claim.resourceClaimTemplateName === undefined) {
      errs.push(
        invalidGo(p.toString(), goClaim, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'),
      )
    }
    for (const key of ['resourceClaimName', 'resourceClaimTemplateName'] as const) {
      const value = claim[key]
      if (value !== undefined)
        errs.push(...nameIsSubdomain(value, false).map((m) => fieldError.invalid(p.child(key).toString(), value, m)))
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
