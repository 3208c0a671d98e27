// Pod defaulting: what kube-apiserver 1.33 does to every decoded pod before validation, in one idempotent pass.
//   - scheme defaults (pkg/apis/core/v1 SetDefaults_Pod, _PodSpec, _Container, _Probe, _HTTPGetAction, _Volume and the
//     volume sources, _ObjectFieldSelector, _ResourceList, plus the declarative +default tags);
//   - v1 conversion effects (serviceAccount mirrors serviceAccountName, a negative grace period becomes 1, status.podIP
//     is authoritative over status.podIPs, quantities are re-serialized the way Quantity.MarshalJSON writes them,
//     empty lists and maps vanish as omitempty drops them).
// The store runs this on create and on every PUT body, so a sparse replace (kubectl replace) compares equal to the
// stored pod. Every step therefore leaves an already-defaulted pod unchanged. What the admission plugins add
// afterwards: ./pod-admission.ts; the QoS class: ./pod-qos.ts.
import { canonicalQuantity, formatQuantity, parseQuantity, type ParsedQuantity } from '../../../schema/quantity'
import type {
  AnyContainer,
  Container,
  HTTPGetAction,
  ObjectFieldSelector,
  PodObject,
  PodSpec,
  PodStatus,
  Probe,
  ResourceFieldSelector,
  ResourceList,
  Volume,
} from './pod-types'

// ---------------------------------------------------------------------------------------------------------------
// Image pull policy

const ALNUM = '[a-z0-9]+'
const SEPARATOR = '(?:[._]|__|[-]+)'
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])'
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`
const TAG = '[\\w][\\w.-]{0,127}'
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}'
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`)

/**
 * parsers.ParseImageName's tag: "latest" when the reference has neither tag nor digest, "" when it does not parse
 * (an empty or malformed image), else the tag as written.
 */
function imageTag(image: string | undefined): string {
  if (!image) return ''
  const m = REFERENCE.exec(image)
  if (!m || m[1]!.length > 255 || /^[a-f0-9]{64}$/.test(image)) return ''
  const [, , tag, digest] = m
  if (!tag && !digest) return 'latest'
  return tag ?? ''
}

/** SetDefaults_Container's pull policy: Always for the latest tag (explicit or implied), else IfNotPresent. */
export function defaultPullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent'
}

// ---------------------------------------------------------------------------------------------------------------
// Quantities

/** Quantity.RoundUp(-3): finer than milli rounds away from zero to the next milli. */
function roundUpToMilli(q: ParsedQuantity): ParsedQuantity {
  if (q.exponent >= -3) return q
  const divisor = 10n ** BigInt(-3 - q.exponent)
  let mantissa = q.mantissa / divisor
  if (q.mantissa % divisor !== 0n) mantissa += q.mantissa > 0n ? 1n : -1n
  return { mantissa, exponent: -3, format: q.format }
}

/** How the apiserver writes a *Quantity back: its canonical (or kept) string. */
function canonical(value: string | number): string | number {
  return canonicalQuantity(value) ?? value
}

/** SetDefaults_ResourceList, then serialization: milli rounding and canonical strings. */
function defaultResourceList(list: ResourceList | undefined) {
  if (!list) return
  for (const [name, value] of Object.entries(list)) {
    const parsed = parseQuantity(value)
    if (!parsed) continue
    list[name] = parsed.exponent < -3 ? formatQuantity(roundUpToMilli(parsed)) : canonical(value)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Containers

/** Go defaulting treats "" like unset. */
export const unset = (v: string | undefined): v is undefined | '' => v === undefined || v === ''

function defaultHTTPGet(http: HTTPGetAction | undefined) {
  if (!http) return
  if (unset(http.path)) http.path = '/'
  if (unset(http.scheme)) http.scheme = 'HTTP'
}

function defaultProbe(probe: Probe | undefined) {
  if (!probe) return
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1
  if (!probe.periodSeconds) probe.periodSeconds = 10
  if (!probe.successThreshold) probe.successThreshold = 1
  if (!probe.failureThreshold) probe.failureThreshold = 3
  defaultHTTPGet(probe.httpGet)
}

function defaultFieldRef(ref: ObjectFieldSelector | undefined) {
  if (ref && unset(ref.apiVersion)) ref.apiVersion = 'v1'
}

function defaultResourceFieldRef(ref: ResourceFieldSelector | undefined) {
  if (ref?.divisor !== undefined) ref.divisor = canonical(ref.divisor)
}

/** SetDefaults_Container and the defaults of everything a container embeds. */
function defaultContainer(c: AnyContainer) {
  if (unset(c.imagePullPolicy)) c.imagePullPolicy = defaultPullPolicy(c.image)
  if (unset(c.terminationMessagePath)) c.terminationMessagePath = '/dev/termination-log'
  if (unset(c.terminationMessagePolicy)) c.terminationMessagePolicy = 'File'
  // Resources is a struct, not a pointer: kube always writes it, empty or not.
  c.resources ??= {}
  for (const port of c.ports ?? []) if (unset(port.protocol)) port.protocol = 'TCP'
  for (const env of c.env ?? []) {
    defaultFieldRef(env.valueFrom?.fieldRef)
    defaultResourceFieldRef(env.valueFrom?.resourceFieldRef)
  }
  defaultProbe(c.livenessProbe)
  defaultProbe(c.readinessProbe)
  defaultProbe(c.startupProbe)
  defaultHTTPGet(c.lifecycle?.postStart?.httpGet)
  defaultHTTPGet(c.lifecycle?.preStop?.httpGet)
}

/** SetDefaults_Pod: requests default to limits, for regular and init containers only. */
function defaultRequestsFromLimits(c: Container) {
  const limits = c.resources?.limits
  if (!limits) return
  const requests = (c.resources!.requests ??= {})
  for (const [name, value] of Object.entries(limits)) if (!(name in requests)) requests[name] = value
}

// ---------------------------------------------------------------------------------------------------------------
// Volumes

const VOLUME_MODE_DEFAULT = 420 // 0644

function defaultVolume(v: Volume) {
  const { name: _name, ...sources } = v
  // SetDefaults_Volume: a volume without a source is an emptyDir.
  if (Object.values(sources).every((s) => s === undefined)) v.emptyDir = {}
  if (v.emptyDir?.sizeLimit !== undefined) v.emptyDir.sizeLimit = canonical(v.emptyDir.sizeLimit)
  if (v.hostPath) v.hostPath.type ??= ''
  if (v.secret) v.secret.defaultMode ??= VOLUME_MODE_DEFAULT
  if (v.configMap) v.configMap.defaultMode ??= VOLUME_MODE_DEFAULT
  if (v.downwardAPI) {
    v.downwardAPI.defaultMode ??= VOLUME_MODE_DEFAULT
    for (const item of v.downwardAPI.items ?? []) {
      defaultFieldRef(item.fieldRef)
      defaultResourceFieldRef(item.resourceFieldRef)
    }
  }
  if (v.projected) {
    v.projected.defaultMode ??= VOLUME_MODE_DEFAULT
    for (const source of v.projected.sources ?? []) {
      for (const item of source.downwardAPI?.items ?? []) {
        defaultFieldRef(item.fieldRef)
        defaultResourceFieldRef(item.resourceFieldRef)
      }
      if (source.serviceAccountToken) source.serviceAccountToken.expirationSeconds ??= 3600
    }
  }
  if (v.iscsi && unset(v.iscsi.iscsiInterface)) v.iscsi.iscsiInterface = 'default'
  if (v.rbd) {
    if (unset(v.rbd.pool)) v.rbd.pool = 'rbd'
    if (unset(v.rbd.user)) v.rbd.user = 'admin'
    if (unset(v.rbd.keyring)) v.rbd.keyring = '/etc/ceph/keyring'
  }
  if (v.azureDisk) {
    v.azureDisk.cachingMode ??= 'ReadWrite'
    v.azureDisk.fsType ??= 'ext4'
    v.azureDisk.readOnly ??= false
    v.azureDisk.kind ??= 'Shared'
  }
  if (v.scaleIO) {
    if (unset(v.scaleIO.storageMode)) v.scaleIO.storageMode = 'ThinProvisioned'
    if (unset(v.scaleIO.fsType)) v.scaleIO.fsType = 'xfs'
  }
  const claimSpec = v.ephemeral?.volumeClaimTemplate?.spec
  if (claimSpec) {
    claimSpec.volumeMode ??= 'Filesystem'
    defaultResourceList(claimSpec.resources?.requests)
    defaultResourceList(claimSpec.resources?.limits)
  }
  if (v.image && unset(v.image.pullPolicy)) v.image.pullPolicy = defaultPullPolicy(v.image.reference)
}

// ---------------------------------------------------------------------------------------------------------------
// omitempty

/** List fields Go writes even when empty (no omitempty tag). */
const KEEP_EMPTY_LISTS = new Set(['containers', 'nodeSelectorTerms', 'monitors', 'sources'])
/** Map-typed fields in a pod spec; omitempty drops them when empty. Struct-typed fields are never dropped. */
const MAP_FIELDS = new Set([
  'nodeSelector',
  'limits',
  'requests',
  'overhead',
  'matchLabels',
  'volumeAttributes',
  'labels',
  'annotations',
  'userAnnotations',
])

/** Drops what Go's omitempty would: empty lists, and empty maps among the known map fields. */
export function dropEmpty(value: unknown) {
  if (Array.isArray(value)) {
    for (const item of value) dropEmpty(item)
    return
  }
  if (!value || typeof value !== 'object') return
  const obj = value as Record<string, unknown>
  for (const [key, v] of Object.entries(obj)) {
    if (Array.isArray(v) && v.length === 0 && !KEEP_EMPTY_LISTS.has(key)) delete obj[key]
    else if (MAP_FIELDS.has(key) && v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)
      delete obj[key]
    else dropEmpty(v)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Status

/** The pod IPs v1 conversion keeps: status.podIP wins over a disagreeing status.podIPs. */
export function effectivePodIPs(status: PodStatus): string[] {
  const ips = (status.podIPs ?? []).map((p) => p.ip ?? '')
  const podIP = status.podIP ?? ''
  if (podIP && (ips.length === 0 || ips[0] !== podIP)) return [podIP]
  return ips
}

function defaultStatus(status: PodStatus | undefined) {
  if (!status) return
  const ips = effectivePodIPs(status)
  const current = (status.podIPs ?? []).map((p) => p.ip)
  if (ips.join(',') !== current.join(',')) status.podIPs = ips.map((ip) => ({ ip }))
  if (!status.podIP && ips.length > 0) status.podIP = ips[0]
}

// ---------------------------------------------------------------------------------------------------------------

/** Applies every default to a decoded pod, in place. Idempotent. */
export function applyPodDefaults(pod: PodObject) {
  // A body without spec gets an empty one, as Go's zero PodSpec; validation then asks for containers.
  const spec: PodSpec = (pod.spec ??= { containers: [] })

  // SetDefaults_PodSpec, SetDefaults_Pod.
  if (unset(spec.dnsPolicy)) spec.dnsPolicy = 'ClusterFirst'
  if (unset(spec.restartPolicy)) spec.restartPolicy = 'Always'
  spec.securityContext ??= {}
  spec.terminationGracePeriodSeconds ??= 30
  // v1 conversion (1.27+): a negative grace period on a pod becomes 1.
  if (spec.terminationGracePeriodSeconds < 0) spec.terminationGracePeriodSeconds = 1
  if (unset(spec.schedulerName)) spec.schedulerName = 'default-scheduler'
  spec.enableServiceLinks ??= true

  const containers = spec.containers ?? []
  const initContainers = spec.initContainers ?? []
  for (const c of [...containers, ...initContainers, ...(spec.ephemeralContainers ?? [])]) defaultContainer(c)
  for (const c of [...containers, ...initContainers]) defaultRequestsFromLimits(c)
  for (const c of [...containers, ...initContainers, ...(spec.ephemeralContainers ?? [])]) {
    defaultResourceList(c.resources?.limits)
    defaultResourceList(c.resources?.requests)
  }
  defaultResourceList(spec.overhead)
  defaultResourceList(spec.resources?.limits)
  defaultResourceList(spec.resources?.requests)
  // With host networking, container ports are host ports.
  if (spec.hostNetwork) {
    for (const c of [...containers, ...initContainers]) {
      for (const port of c.ports ?? []) if (!port.hostPort) port.hostPort = port.containerPort
    }
  }
  for (const v of spec.volumes ?? []) defaultVolume(v)
  // Conversion mirrors the deprecated field into the new one.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount

  dropEmpty(spec)
  defaultStatus(pod.status)
}
