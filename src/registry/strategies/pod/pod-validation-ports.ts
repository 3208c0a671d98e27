// Container ports and host-port conflicts, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isValidPortName, isValidPortNum, list, str } from './pod-validation-formats'
import type { AnyContainer } from './pod-types'

type Ctr = AnyContainer

const PROTOCOLS = ['SCTP', 'TCP', 'UDP']

export function validateContainerPorts(ctr: Ctr, path: FieldPath): FieldError[] {
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
    else
      errs.push(
        ...isValidPortNum(containerPort).map((m) =>
          fieldError.invalid(p.child('containerPort').toString(), containerPort, m),
        ),
      )
    const hostPort = port.hostPort ?? 0
    if (hostPort !== 0) {
      errs.push(...isValidPortNum(hostPort).map((m) => fieldError.invalid(p.child('hostPort').toString(), hostPort, m)))
    }
    const protocol = str(port.protocol)
    if (protocol === '') errs.push(fieldError.required(p.child('protocol').toString()))
    else if (!PROTOCOLS.includes(protocol))
      errs.push(fieldError.notSupported(p.child('protocol').toString(), protocol, PROTOCOLS))
  })
  return errs
}

/** checkHostPortConflicts: protocol/hostIP/hostPort must be unique across the given containers. */
export function checkHostPortConflicts(containers: readonly Ctr[], path: FieldPath): FieldError[] {
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
