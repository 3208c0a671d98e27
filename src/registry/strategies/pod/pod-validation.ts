// Pod validation (ValidatePodCreate / ValidatePodUpdate): every field error, with kube's paths and wording.
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { isDNS1123Label } from '../../validation/names'
import { deepEqual, clone } from '../../deep-equal'
import type { PodObject } from './pod-types'

type Obj = Record<string, any>

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never']
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']
const PROTOCOLS = ['SCTP', 'TCP', 'UDP']
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never']

export function validatePod(pod: PodObject): FieldError[] {
  const spec: Obj = pod.spec ?? {}
  const p = new FieldPath('spec')
  const errs: FieldError[] = []
  const volumes = new Set<string>()
  ;(spec.volumes ?? []).forEach((v: Obj, i: number) => {
    const vp = p.child('volumes').index(i)
    if (!v.name) errs.push(fieldError.required(vp.child('name').toString()))
    else {
      for (const m of isDNS1123Label(v.name)) errs.push(fieldError.invalid(vp.child('name').toString(), v.name, m))
      if (volumes.has(v.name)) errs.push(fieldError.duplicate(vp.child('name').toString(), v.name))
      volumes.add(v.name)
    }
  })
  const containers: Obj[] = spec.containers ?? []
  if (containers.length === 0) errs.push(fieldError.required(p.child('containers').toString()))
  const names = new Set<string>()
  const check = (list: Obj[], path: FieldPath, needsImage: boolean) =>
    list.forEach((c, i) => errs.push(...validateContainer(c, path.index(i), names, volumes, needsImage)))
  check(spec.initContainers ?? [], p.child('initContainers'), true)
  check(containers, p.child('containers'), true)
  check(spec.ephemeralContainers ?? [], p.child('ephemeralContainers'), true)
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    errs.push(fieldError.notSupported(p.child('restartPolicy').toString(), spec.restartPolicy, RESTART_POLICIES))
  }
  if (spec.dnsPolicy !== undefined && !DNS_POLICIES.includes(spec.dnsPolicy)) {
    errs.push(fieldError.notSupported(p.child('dnsPolicy').toString(), spec.dnsPolicy, DNS_POLICIES))
  }
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds <= 0) {
    errs.push(fieldError.invalid(p.child('activeDeadlineSeconds').toString(), spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'))
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    errs.push(fieldError.invalid(p.child('terminationGracePeriodSeconds').toString(), spec.terminationGracePeriodSeconds, 'must be greater than or equal to 0'))
  }
  return errs
}

function validateContainer(c: Obj, path: FieldPath, names: Set<string>, volumes: Set<string>, needsImage: boolean): FieldError[] {
  const errs: FieldError[] = []
  if (!c.name) errs.push(fieldError.required(path.child('name').toString()))
  else {
    for (const m of isDNS1123Label(c.name)) errs.push(fieldError.invalid(path.child('name').toString(), c.name, m))
    if (names.has(c.name)) errs.push(fieldError.duplicate(path.child('name').toString(), c.name))
    names.add(c.name)
  }
  if (needsImage && (!c.image || String(c.image).trim() === '')) errs.push(fieldError.required(path.child('image').toString()))
  if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy)) {
    errs.push(fieldError.notSupported(path.child('imagePullPolicy').toString(), c.imagePullPolicy, PULL_POLICIES))
  }
  const portNames = new Set<string>()
  ;(c.ports ?? []).forEach((port: Obj, i: number) => {
    const pp = path.child('ports').index(i)
    if (port.containerPort === undefined) errs.push(fieldError.required(pp.child('containerPort').toString()))
    else if (port.containerPort < 1 || port.containerPort > 65535) {
      errs.push(fieldError.invalid(pp.child('containerPort').toString(), port.containerPort, 'must be between 1 and 65535, inclusive'))
    }
    if (port.hostPort !== undefined && port.hostPort !== 0 && (port.hostPort < 1 || port.hostPort > 65535)) {
      errs.push(fieldError.invalid(pp.child('hostPort').toString(), port.hostPort, 'must be between 1 and 65535, inclusive'))
    }
    if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol)) {
      errs.push(fieldError.notSupported(pp.child('protocol').toString(), port.protocol, PROTOCOLS))
    }
    if (port.name) {
      if (portNames.has(port.name)) errs.push(fieldError.duplicate(pp.child('name').toString(), port.name))
      portNames.add(port.name)
    }
  })
  ;(c.volumeMounts ?? []).forEach((m: Obj, i: number) => {
    const mp = path.child('volumeMounts').index(i)
    if (!m.name) errs.push(fieldError.required(mp.child('name').toString()))
    else if (!volumes.has(m.name)) errs.push(fieldError.notFound(mp.child('name').toString(), m.name))
    if (!m.mountPath) errs.push(fieldError.required(mp.child('mountPath').toString()))
  })
  ;(c.env ?? []).forEach((e: Obj, i: number) => {
    if (!e.name) errs.push(fieldError.required(path.child('env').index(i).child('name').toString()))
  })
  return errs
}

const UPDATABLE =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'

/** ValidatePodUpdate: the spec is immutable except for the fields UPDATABLE names. */
export function validatePodUpdate(pod: PodObject, old: PodObject): FieldError[] {
  const errs = validatePod(pod)
  const spec: Obj = pod.spec ?? {}
  const oldSpec: Obj = old.spec ?? {}
  if (oldSpec.activeDeadlineSeconds !== undefined) {
    if (spec.activeDeadlineSeconds === undefined) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'))
    } else if (spec.activeDeadlineSeconds > oldSpec.activeDeadlineSeconds) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', spec.activeDeadlineSeconds, 'must be less than or equal to previous value'))
    }
  }
  const oldTolerations: Obj[] = oldSpec.tolerations ?? []
  const newTolerations: Obj[] = spec.tolerations ?? []
  for (const t of oldTolerations) {
    const kept = newTolerations.some(
      (n) =>
        n.key === t.key &&
        n.operator === t.operator &&
        n.value === t.value &&
        n.effect === t.effect &&
        (t.tolerationSeconds === undefined
          ? n.tolerationSeconds === undefined
          : n.tolerationSeconds !== undefined && n.tolerationSeconds <= t.tolerationSeconds),
    )
    if (!kept) {
      errs.push(fieldError.forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'))
      break
    }
  }
  // Mask the mutable fields with the old values; anything still different is a forbidden change.
  const masked = clone(spec)
  ;(masked.containers ?? []).forEach((c: Obj, i: number) => {
    const o = (oldSpec.containers ?? [])[i]
    if (o) c.image = o.image
  })
  ;(masked.initContainers ?? []).forEach((c: Obj, i: number) => {
    const o = (oldSpec.initContainers ?? [])[i]
    if (o) c.image = o.image
  })
  masked.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds
  masked.tolerations = oldSpec.tolerations
  if (oldSpec.terminationGracePeriodSeconds !== undefined && oldSpec.terminationGracePeriodSeconds < 0 && spec.terminationGracePeriodSeconds === 1) {
    masked.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds
  }
  // Ephemeral containers change only through their subresource.
  masked.ephemeralContainers = oldSpec.ephemeralContainers
  // Scheduling gates may only be removed.
  if ((spec.schedulingGates ?? []).every((g: Obj) => (oldSpec.schedulingGates ?? []).some((o: Obj) => o.name === g.name))) {
    masked.schedulingGates = oldSpec.schedulingGates
  }
  for (const k of Object.keys(masked)) if (masked[k] === undefined) delete masked[k]
  const oldCopy = clone(oldSpec)
  if (!deepEqual(masked, oldCopy)) {
    errs.push(fieldError.forbidden('spec', `${UPDATABLE}\n${describeDiff(oldCopy, masked)}`))
  }
  return errs
}

/** A short, readable account of what differs, in the spirit of kube's cmp.Diff appendix. */
function describeDiff(a: unknown, b: unknown, path = 'spec', out: string[] = []): string {
  if (deepEqual(a, b)) return out.join('\n')
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a as Obj), ...Object.keys(b as Obj)])
    for (const k of keys) {
      const child = Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`
      describeDiff((a as Obj)[k], (b as Obj)[k], child, out)
    }
    return out.join('\n')
  }
  out.push(`  ${path}: ${JSON.stringify(a) ?? '<nil>'} -> ${JSON.stringify(b) ?? '<nil>'}`)
  return out.join('\n')
}
