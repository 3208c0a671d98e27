// Container environment (ValidateEnv, ValidateEnvFrom) and the field and resource selectors env vars share with
// downward API volumes, after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { parseQuantity } from '../../../schema/quantity'
import {
  isConfigMapKey,
  isRelaxedEnvVarName,
  nameIsSubdomain,
  str,
  validateQualifiedName,
} from './pod-validation-formats'
import { quantityString } from './pod-validation-quantities'
import type { EnvFromSource, EnvVar, ObjectFieldSelector, ResourceFieldSelector } from './pod-types'

const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]
export const VOLUME_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
]
const RESOURCE_FIELD_PATHS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
]

/** ValidateEnv. */
export function validateEnv(vars: readonly EnvVar[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  vars.forEach((ev, i) => {
    const p = path.index(i)
    if (!ev.name) errs.push(fieldError.required(p.child('name').toString()))
    else
      errs.push(...isRelaxedEnvVarName(ev.name).map((m) => fieldError.invalid(p.child('name').toString(), ev.name, m)))
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
    errs.push(
      fieldError.invalid(
        at,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    )
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
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
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
export function validateObjectFieldSelector(
  fs: ObjectFieldSelector,
  expressions: readonly string[],
  path: FieldPath,
): FieldError[] {
  const apiVersion = str(fs.apiVersion)
  const fieldPath = str(fs.fieldPath)
  if (apiVersion === '') return [fieldError.required(path.child('apiVersion').toString())]
  if (fieldPath === '') return [fieldError.required(path.child('fieldPath').toString())]
  const converted = convertDownwardAPIFieldLabel(apiVersion, fieldPath)
  if ('error' in converted) {
    return [
      fieldError.invalid(
        path.child('fieldPath').toString(),
        fieldPath,
        `error converting fieldPath: ${converted.error}`,
      ),
    ]
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
export function validateContainerResourceFieldSelector(
  fs: ResourceFieldSelector,
  path: FieldPath,
  volume: boolean,
): FieldError[] {
  const errs: FieldError[] = []
  const resource = str(fs.resource)
  if (volume && !fs.containerName) errs.push(fieldError.required(path.child('containerName').toString()))
  else if (resource === '') errs.push(fieldError.required(path.child('resource').toString()))
  else if (
    !RESOURCE_FIELD_PATHS.includes(resource) &&
    !resource.startsWith('limits.hugepages-') &&
    !resource.startsWith('requests.hugepages-')
  ) {
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
      errs.push(
        fieldError.invalid(at, resource, `only divisor's values ${bytes} are supported with the memory resource`),
      )
    }
    if (
      (resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') &&
      !BYTE_DIVISORS.has(divisor)
    ) {
      errs.push(
        fieldError.invalid(
          at,
          resource,
          `only divisor's values ${bytes} are supported with the local ephemeral storage resource`,
        ),
      )
    }
    if (
      (resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) &&
      !BYTE_DIVISORS.has(divisor)
    ) {
      errs.push(
        fieldError.invalid(at, resource, `only divisor's values ${bytes} are supported with the hugepages resource`),
      )
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
export function validateEnvFrom(sources: readonly EnvFromSource[], path: FieldPath): FieldError[] {
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
    if (n === 0)
      errs.push(fieldError.invalid(path.toString(), '', 'must specify one of: `configMapRef` or `secretRef`'))
    else if (n > 1)
      errs.push(fieldError.invalid(path.toString(), '', 'may not have more than one field specified at a time'))
  })
  return errs
}
