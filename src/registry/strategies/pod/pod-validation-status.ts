// Pod status validation for the pods/status subresource (ValidatePodStatusUpdate), after kube-apiserver 1.33
// pkg/apis/core/validation, minus ObjectMetaUpdate (the store's job). Like kube it does not check that container
// statuses name existing containers, nor that phase is a known value: kube accepts both, and so do we.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { goQuote } from '../../go-strings'
import {
  FIELD_IMMUTABLE_ERROR_MSG,
  duplicateGo,
  invalidGo,
  ipFamily,
  isDualStack,
  isValidUnixID,
  list,
  nameIsSubdomain,
  str,
  validateIP,
  validateQualifiedName,
} from './pod-validation-formats'
import { validatePodSpecificAnnotationUpdates } from './pod-validation-update'
import { effectivePodIPs } from './pod-defaults'
import type { Container, ContainerStatus, PodObject, PodSpec, PodStatus } from './pod-types'

const statusPath = new FieldPath('status')
// Kube validates conditions under the metadata path it was holding at the time: metadata.conditions[i].Type.
const conditionsPath = new FieldPath('metadata').child('conditions')
const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized'])

/** ValidatePodStatusUpdate: what a status write may not do. */
export function validatePodStatusUpdate(pod: PodObject, old: PodObject): FieldError[] {
  const spec = pod.spec ?? ({} as PodSpec)
  const oldSpec = old.spec ?? ({} as PodSpec)
  const status: PodStatus = pod.status ?? {}
  const oldStatus: PodStatus = old.status ?? {}
  const errs = validatePodSpecificAnnotationUpdates(pod, old)
  list(status.conditions).forEach((c, i) => {
    const type = str(c.type)
    if (!SYSTEM_CONDITIONS.has(type)) errs.push(...validateQualifiedName(type, conditionsPath.index(i).child('Type')))
  })
  if (str(spec.nodeName) !== str(oldSpec.nodeName)) {
    errs.push(fieldError.forbidden(statusPath.child('nodeName').toString(), 'may not be changed directly'))
  }
  const nominated = str(status.nominatedNodeName)
  if (nominated !== str(oldStatus.nominatedNodeName) && nominated.length > 0) {
    errs.push(
      ...nameIsSubdomain(nominated, false).map((m) =>
        fieldError.invalid(statusPath.child('nominatedNodeName').toString(), nominated, m),
      ),
    )
  }
  if (str(status.qosClass) !== str(oldStatus.qosClass)) {
    errs.push(
      invalidGo(statusPath.child('qosClass').toString(), goQuote(str(status.qosClass)), FIELD_IMMUTABLE_ERROR_MSG),
    )
  }
  const restart = str(oldSpec.restartPolicy)
  errs.push(
    ...validateStateTransitions(
      list(status.containerStatuses),
      list(oldStatus.containerStatuses),
      statusPath.child('containerStatuses'),
      restart,
      new Set(),
    ),
  )
  const restartableInit = new Set(
    list(oldSpec.initContainers)
      .filter((c) => c.restartPolicy === 'Always')
      .map((c) => c.name),
  )
  errs.push(
    ...validateStateTransitions(
      list(status.initContainerStatuses),
      list(oldStatus.initContainerStatuses),
      statusPath.child('initContainerStatuses'),
      restart,
      restartableInit,
    ),
  )
  // The kubelet never restarts ephemeral containers: they behave as restartPolicy Never.
  errs.push(
    ...validateStateTransitions(
      list(status.ephemeralContainerStatuses),
      list(oldStatus.ephemeralContainerStatuses),
      statusPath.child('ephemeralContainerStatuses'),
      'Never',
      new Set(),
    ),
  )
  errs.push(...validateResourceClaimStatuses(status, spec))
  errs.push(...validatePodIPs(status))
  errs.push(...validateHostIPs(status))
  const os = spec.os?.name ?? 'linux'
  for (const key of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'] as const) {
    errs.push(...validateContainerStatusUsers(list(status[key]), statusPath.child(key), os))
  }
  errs.push(
    ...validateAllocatedResourcesStatus(
      list(status.containerStatuses),
      statusPath.child('containerStatuses'),
      list(spec.containers),
    ),
  )
  errs.push(
    ...validateAllocatedResourcesStatus(
      list(status.initContainerStatuses),
      statusPath.child('initContainerStatuses'),
      list(spec.initContainers),
    ),
  )
  list(status.ephemeralContainerStatuses).forEach((cs, i) => {
    if (list(cs.allocatedResourcesStatus).length > 0) {
      errs.push(
        fieldError.forbidden(
          statusPath.child('ephemeralContainerStatuses').index(i).child('allocatedResourcesStatus').toString(),
          'must not be specified in container status',
        ),
      )
    }
  })
  return errs
}

/**
 * ValidateContainerStateTransition / ValidateInitContainerStateTransition: unless the pod restarts always, a container
 * that terminated for good (exit 0, or any exit under Never) may not leave the terminated state. Errors use the old
 * status's index.
 */
function validateStateTransitions(
  statuses: readonly ContainerStatus[],
  old: readonly ContainerStatus[],
  path: FieldPath,
  restartPolicy: string,
  restartable: Set<string>,
): FieldError[] {
  if (restartPolicy === 'Always') return []
  const errs: FieldError[] = []
  old.forEach((o, i) => {
    const terminated = o.state?.terminated
    if (!terminated) return
    if (terminated.exitCode !== 0 && restartPolicy === 'OnFailure') return
    if (restartable.has(o.name)) return
    for (const s of statuses) {
      if (s.name === o.name && !s.state?.terminated) {
        errs.push(
          fieldError.forbidden(
            path.index(i).child('state').toString(),
            'may not be transitioned to non-terminated state',
          ),
        )
      }
    }
  })
  return errs
}

function validateResourceClaimStatuses(status: PodStatus, spec: PodSpec): FieldError[] {
  const errs: FieldError[] = []
  const path = statusPath.child('resourceClaimStatuses')
  const claims = new Set(list(spec.resourceClaims).map((c) => c.name))
  const seen = new Set<string>()
  list(status.resourceClaimStatuses).forEach((claimStatus, i) => {
    const s = { ...claimStatus, name: str(claimStatus.name) }
    const at = path.index(i).child('name').toString()
    if (!claims.has(s.name))
      errs.push(fieldError.invalid(at, s.name, 'must match the name of an entry in `spec.resourceClaims`'))
    if (seen.has(s.name)) errs.push(fieldError.duplicate(at, s.name))
    else seen.add(s.name)
    const claimName = s.resourceClaimName
    if (claimName !== undefined)
      errs.push(...nameIsSubdomain(claimName, false).map((m) => fieldError.invalid(at, claimName, m)))
  })
  return errs
}

const goIPs = (type: string, ips: readonly string[]) =>
  `[]core.${type}{${ips.map((ip) => `core.${type}{IP:${goQuote(ip)}}`).join(', ')}}`

/** validatePodIPs, on the pod IPs as conversion leaves them (status.podIP is authoritative). */
function validatePodIPs(status: PodStatus): FieldError[] {
  const errs: FieldError[] = []
  const path = statusPath.child('podIPs')
  const ips = effectivePodIPs(status)
  ips.forEach((ip, i) => errs.push(...validateIP(ip, path.index(i))))
  if (ips.length > 1) {
    if (ips.every((ip) => ipFamily(ip) !== null) && (!isDualStack(ips) || ips.length > 2)) {
      errs.push(invalidGo(path.toString(), goIPs('PodIP', ips), 'may specify no more than one IP for each IP family'))
    }
    const seen = new Set<string>()
    ips.forEach((ip, i) => {
      if (seen.has(ip)) errs.push(duplicateGo(path.index(i).toString(), `core.PodIP{IP:${goQuote(ip)}}`))
      seen.add(ip)
    })
  }
  return errs
}

/** validateHostIPs: hostIPs[0] is hostIP, every entry valid, at most one per family. */
function validateHostIPs(status: PodStatus): FieldError[] {
  const ips = list(status.hostIPs).map((h) => str(h.ip))
  if (ips.length === 0) return []
  const errs: FieldError[] = []
  const path = statusPath.child('hostIPs')
  if (str(status.hostIP) !== ips[0])
    errs.push(fieldError.invalid(path.index(0).child('ip').toString(), ips[0], 'must be equal to `hostIP`'))
  ips.forEach((ip, i) => errs.push(...validateIP(ip, path.index(i))))
  if (ips.length > 1) {
    const seen = new Set<string>()
    ips.forEach((ip, i) => {
      if (seen.has(ip)) errs.push(duplicateGo(path.index(i).toString(), `core.HostIP{IP:${goQuote(ip)}}`))
      seen.add(ip)
    })
    if (ips.every((ip) => ipFamily(ip) !== null) && (!isDualStack(ips) || ips.length > 2)) {
      errs.push(invalidGo(path.toString(), goIPs('HostIP', ips), 'may specify no more than one IP for each IP family'))
    }
  }
  return errs
}

/** validateContainerStatusUsers; kube reports the IDs under `<status>[i].linux`, without `user`. */
function validateContainerStatusUsers(statuses: readonly ContainerStatus[], path: FieldPath, os: string): FieldError[] {
  const errs: FieldError[] = []
  statuses.forEach((cs, i) => {
    const linux = cs.user?.linux
    if (!cs.user) return
    const lp = path.index(i).child('linux')
    if (os === 'windows') {
      if (linux) errs.push(fieldError.forbidden(lp.toString(), 'cannot be set for a windows pod'))
      return
    }
    if (os !== 'linux' || !linux) return
    errs.push(...isValidUnixID(linux.uid).map((m) => fieldError.invalid(lp.child('uid').toString(), linux.uid, m)))
    errs.push(...isValidUnixID(linux.gid).map((m) => fieldError.invalid(lp.child('gid').toString(), linux.gid, m)))
    list(linux.supplementalGroups).forEach((g, j) => {
      errs.push(
        ...isValidUnixID(g).map((m) => fieldError.invalid(lp.child('supplementalGroups').index(j).toString(), g, m)),
      )
    })
  })
  return errs
}

const HEALTH = ['Healthy', 'Unhealthy', 'Unknown']

/** validateContainerStatusAllocatedResourcesStatus. */
function validateAllocatedResourcesStatus(
  statuses: readonly ContainerStatus[],
  path: FieldPath,
  containers: readonly Container[],
): FieldError[] {
  const errs: FieldError[] = []
  statuses.forEach((cs, i) => {
    list(cs.allocatedResourcesStatus).forEach((allocated, j) => {
      const ap = path.index(i).child('allocatedResourcesStatus').index(j)
      const container = containers.find((c) => c.name === cs.name)
      if (container) {
        let found: boolean
        let detail: string
        if (allocated.name.startsWith('claim:')) {
          detail =
            "must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty"
          found = list(container.resources?.claims).some(
            (c) => `claim:${c.name}${c.request ? `/${c.request}` : ''}` === allocated.name,
          )
        } else {
          detail = "must match one of the container's resource requests"
          found = Object.keys(container.resources?.requests ?? {}).includes(allocated.name)
        }
        if (!found) errs.push(fieldError.invalid(ap.child('name').toString(), allocated.name, detail))
      }
      const ids = new Set<string>()
      list(allocated.resources).forEach((r, k) => {
        const rp = ap.child('resources').index(k)
        const health = str(r.health)
        if (!HEALTH.includes(health)) errs.push(fieldError.notSupported(rp.child('health').toString(), health, HEALTH))
        if (ids.has(r.resourceID)) errs.push(fieldError.duplicate(rp.child('resourceID').toString(), r.resourceID))
        else ids.add(r.resourceID)
      })
    })
  })
  return errs
}
