// Probes and lifecycle hooks, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { IS_NEGATIVE_ERROR_MSG, isHTTPHeaderName, list, str, validatePortNumOrName } from './pod-validation-formats'
import type { HTTPGetAction, Lifecycle, LifecycleHandler, Probe } from './pod-types'

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
  one('exec', () =>
    list(handler.exec?.command).length === 0
      ? [fieldError.required(path.child('exec').child('command').toString())]
      : [],
  )
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

export function validateLifecycle(
  lifecycle: Lifecycle,
  gracePeriod: number | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  if (lifecycle.postStart) errs.push(...validateHandler(lifecycle.postStart, gracePeriod, path.child('postStart')))
  if (lifecycle.preStop) errs.push(...validateHandler(lifecycle.preStop, gracePeriod, path.child('preStop')))
  return errs
}

function validateProbe(probe: Probe, gracePeriod: number | undefined, path: FieldPath): FieldError[] {
  const errs = validateHandler(
    { exec: probe.exec, httpGet: probe.httpGet, tcpSocket: probe.tcpSocket, grpc: probe.grpc },
    gracePeriod,
    path,
  )
  for (const key of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ] as const) {
    const value = probe[key] ?? 0
    if (value < 0) errs.push(fieldError.invalid(path.child(key).toString(), value, IS_NEGATIVE_ERROR_MSG))
  }
  if (probe.terminationGracePeriodSeconds !== undefined && probe.terminationGracePeriodSeconds <= 0) {
    errs.push(
      fieldError.invalid(
        path.child('terminationGracePeriodSeconds').toString(),
        probe.terminationGracePeriodSeconds,
        'must be greater than 0',
      ),
    )
  }
  return errs
}

export function validateLivenessProbe(
  probe: Probe | undefined,
  gracePeriod: number | undefined,
  path: FieldPath,
): FieldError[] {
  if (!probe) return []
  const errs = validateProbe(probe, gracePeriod, path)
  const success = probe.successThreshold ?? 0
  if (success !== 1) errs.push(fieldError.invalid(path.child('successThreshold').toString(), success, 'must be 1'))
  return errs
}

export function validateReadinessProbe(
  probe: Probe | undefined,
  gracePeriod: number | undefined,
  path: FieldPath,
): FieldError[] {
  if (!probe) return []
  const errs = validateProbe(probe, gracePeriod, path)
  if (probe.terminationGracePeriodSeconds !== undefined) {
    errs.push(
      fieldError.invalid(
        path.child('terminationGracePeriodSeconds').toString(),
        probe.terminationGracePeriodSeconds,
        'must not be set for readinessProbes',
      ),
    )
  }
  return errs
}

export const validateStartupProbe = validateLivenessProbe
