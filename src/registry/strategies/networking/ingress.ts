// The Ingress strategy: kube 1.33's ValidateIngressCreate/Update (a default backend or rules, hosts as DNS names or
// wildcards, paths by path type, service or resource backends, TLS hosts and secret names, the class name and the
// deprecated class annotation agreeing), the status subresource (load balancer ingress points), generation bumped
// on spec changes, and the `kubectl get ingress` table. No ingress controller runs here.
import type { Ingress } from '../../../schema/ingress'
import type { ObjectMeta } from '../../../schema/meta'
import { deepEqual } from '../../deep-equal'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import { compareUtf8 } from '../../go-strings'
import type { Strategy } from '../../strategy'
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain, regexError } from '../../validation/names'
import { AGE_COLUMN, NAME_COLUMN } from '../config/data-keys'
import { ipFamily, isValidPortName, isValidPortNum, validateIP } from '../pod/pod-validation-formats'
import { validateTypedReference } from './ingress-class'

type IngressObject = Ingress & { metadata: ObjectMeta }
type Spec = NonNullable<Ingress['spec']>
type Backend = NonNullable<Spec['defaultBackend']>
type Rule = NonNullable<Spec['rules']>[number]

const CLASS_ANNOTATION = 'kubernetes.io/ingress.class'
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix']
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F']
const INVALID_PATH_SUFFIXES = ['/..', '/.']
const WILDCARD_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`)
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character"

/** IsWildcardDNS1123Subdomain. */
function isWildcardSubdomain(value: string): string[] {
  const errs: string[] = []
  if (new TextEncoder().encode(value).length > 253) errs.push('must be no more than 253 characters')
  if (!WILDCARD_RE.test(value)) errs.push(regexError(WILDCARD_MSG, WILDCARD_FMT, '*.example.com'))
  return errs
}

const hostErrors = (host: string) => (host.includes('*') ? isWildcardSubdomain(host) : isDNS1123Subdomain(host))

function validateBackend(b: Backend, path: FieldPath): FieldError[] {
  const at = path.toString()
  if (b.resource && b.service) return [fieldError.invalid(at, '', 'cannot set both resource and service backends')]
  if (b.resource) return validateTypedReference(b.resource, path.child('resource'))
  if (!b.service) return [fieldError.invalid(at, '', 'resource or service backend is required')]
  const errs: FieldError[] = []
  const svc = path.child('service')
  if (!b.service.name) errs.push(fieldError.required(svc.child('name').toString()))
  else
    for (const m of isDNS1035Label(b.service.name))
      errs.push(fieldError.invalid(svc.child('name').toString(), b.service.name, m))
  const port = b.service.port ?? {}
  const named = Boolean(port.name)
  const numbered = (port.number ?? 0) !== 0
  if (named && numbered) errs.push(fieldError.invalid(at, '', 'cannot set both port name & port number'))
  else if (named)
    for (const m of isValidPortName(port.name!))
      errs.push(fieldError.invalid(svc.child('port').child('name').toString(), port.name, m))
  else if (numbered)
    for (const m of isValidPortNum(port.number!))
      errs.push(fieldError.invalid(svc.child('port').child('number').toString(), port.number, m))
  else errs.push(fieldError.required(at, 'port name or number is required'))
  return errs
}

function validateRule(rule: Rule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const host = rule.host ?? ''
  if (host) {
    if (ipFamily(host) !== null)
      errs.push(fieldError.invalid(path.child('host').toString(), host, 'must be a DNS name, not an IP address'))
    for (const m of hostErrors(host)) errs.push(fieldError.invalid(path.child('host').toString(), host, m))
  }
  if (!rule.http) return errs
  const http = path.child('http')
  if ((rule.http.paths ?? []).length === 0) errs.push(fieldError.required(http.child('paths').toString()))
  rule.http.paths?.forEach((p, i) => {
    const at = http.child('paths').index(i)
    if (!p.pathType) {
      errs.push(fieldError.required(at.child('pathType').toString(), 'pathType must be specified'))
      return
    }
    const value = p.path ?? ''
    const pathAt = at.child('path').toString()
    if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
      if (!value.startsWith('/')) errs.push(fieldError.invalid(pathAt, value, 'must be an absolute path'))
      for (const seq of INVALID_PATH_SEQUENCES)
        if (value.includes(seq)) errs.push(fieldError.invalid(pathAt, value, `must not contain '${seq}'`))
      for (const suf of INVALID_PATH_SUFFIXES)
        if (value.endsWith(suf)) errs.push(fieldError.invalid(pathAt, value, `cannot end with '${suf}'`))
    } else if (p.pathType === 'ImplementationSpecific') {
      if (value && !value.startsWith('/')) errs.push(fieldError.invalid(pathAt, value, 'must be an absolute path'))
    } else {
      errs.push(fieldError.notSupported(at.child('pathType').toString(), p.pathType, PATH_TYPES))
    }
    errs.push(...validateBackend(p.backend ?? {}, at.child('backend')))
  })
  return errs
}

/** ValidateIngressSpec (create options: no invalid secret names or wildcard rules carried over). */
function validateSpec(spec: Spec): FieldError[] {
  const p = new FieldPath('spec')
  const errs: FieldError[] = []
  const rules = spec.rules ?? []
  if (rules.length === 0 && !spec.defaultBackend) {
    // kube passes the rules slice itself as the bad value (%#v).
    const value = spec.rules === undefined ? '[]networking.IngressRule(nil)' : '[]networking.IngressRule{}'
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec',
      message: `Invalid value: ${value}: either \`defaultBackend\` or \`rules\` must be specified`,
    })
  }
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, p.child('defaultBackend')))
  rules.forEach((r, i) => errs.push(...validateRule(r, p.child('rules').index(i))))
  ;(spec.tls ?? []).forEach((tls, i) => {
    const at = p.child('tls').index(i)
    ;(tls.hosts ?? []).forEach((h, j) => {
      for (const m of hostErrors(h)) errs.push(fieldError.invalid(at.child('hosts').index(j).toString(), h, m))
    })
    if (tls.secretName)
      for (const m of nameIsDNSSubdomain(tls.secretName, false))
        errs.push(fieldError.invalid(at.child('secretName').toString(), tls.secretName, m))
  })
  if (spec.ingressClassName !== undefined)
    for (const m of nameIsDNSSubdomain(spec.ingressClassName, false))
      errs.push(fieldError.invalid('spec.ingressClassName', spec.ingressClassName, m))
  return errs
}

/** ValidateIngressLoadBalancerStatus. */
function validateStatus(ing: IngressObject): FieldError[] {
  const errs: FieldError[] = []
  ;(ing.status?.loadBalancer?.ingress ?? []).forEach((point, i) => {
    const at = new FieldPath('status').child('loadBalancer').child('ingress').index(i)
    if (point.ip) errs.push(...validateIP(point.ip, at.child('ip')))
    if (point.hostname) {
      for (const m of isDNS1123Subdomain(point.hostname))
        errs.push(fieldError.invalid(at.child('hostname').toString(), point.hostname, m))
      if (ipFamily(point.hostname) !== null)
        errs.push(
          fieldError.invalid(at.child('hostname').toString(), point.hostname, 'must be a DNS name, not an IP address'),
        )
    }
  })
  return errs
}

/** formatHosts: up to three rule hosts, `*` when none. */
function hosts(rules: readonly Rule[]): string {
  const list: string[] = []
  let more = false
  for (const r of rules) {
    if (list.length === 3) more = true
    if (!more && r.host) list.push(r.host)
  }
  if (list.length === 0) return '*'
  return more ? `${list.join(',')} + ${rules.length - 3} more...` : list.join(',')
}

/** The load balancer's addresses, sorted and cut to 16 characters as kubectl's non-wide output does. */
function address(ing: IngressObject): string {
  const set = new Set<string>()
  for (const p of ing.status?.loadBalancer?.ingress ?? [])
    if (p.ip) set.add(p.ip)
    else if (p.hostname) set.add(p.hostname)
  const r = [...set].sort(compareUtf8).join(',')
  return r.length > 16 ? `${r.slice(0, 13)}...` : r
}

export const ingressStrategy: Strategy<IngressObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: () => undefined,
  prepareForCreate(ing) {
    ing.status = { loadBalancer: {} }
    ing.metadata.generation = 1
  },
  validate(ing) {
    const errs = validateSpec(ing.spec ?? {})
    const annotation = ing.metadata.annotations?.[CLASS_ANNOTATION]
    if (
      annotation !== undefined &&
      ing.spec?.ingressClassName !== undefined &&
      annotation !== ing.spec.ingressClassName
    )
      errs.push(
        fieldError.invalid(
          `annotations.${CLASS_ANNOTATION}`,
          annotation,
          'must match `ingressClassName` when both are specified',
        ),
      )
    return errs
  },
  prepareForUpdate(ing, old) {
    ing.status = structuredClone(old.status ?? { loadBalancer: {} })
    if (!deepEqual(ing.spec ?? {}, old.spec ?? {})) ing.metadata.generation = (old.metadata.generation ?? 0) + 1
  },
  validateUpdate: (ing) => validateSpec(ing.spec ?? {}),
  validateStatusUpdate: validateStatus,
  selectableFields: (ing) => ({
    'metadata.name': ing.metadata.name ?? '',
    'metadata.namespace': ing.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      col('Class', 'The name of the IngressClass resource that should be used for additional configuration'),
      col('Hosts', 'Hosts that incoming requests are matched against before the ingress rule'),
      col('Address', 'Address is a list containing ingress points for the load-balancer'),
      col('Ports', 'Ports of TLS configurations that open'),
      AGE_COLUMN,
    ],
    cells: (ing, now) => [
      ing.metadata.name,
      ing.spec?.ingressClassName ?? '<none>',
      hosts(ing.spec?.rules ?? []),
      address(ing),
      (ing.spec?.tls ?? []).length > 0 ? '80, 443' : '80',
      age(ing.metadata.creationTimestamp, now),
    ],
  },
}

function col(name: string, description: string) {
  return { name, type: 'string' as const, format: '', description, priority: 0 }
}
