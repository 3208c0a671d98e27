// The v1beta1 Pod table: the envelope (id, uid, labels...), desiredState.manifest (containers, volumes, restartPolicy)
// and host, the read-only currentState (status, host, hostIP, podIP, info), against core/v1 Pod.
import type { Row } from './fields'
import { quantityToMilli, quantityToNumber } from '../../schema/quantity'

type Json = Record<string, unknown>

/** A two-way value map; values outside it pass through unchanged (validation then names them). */
function valueMap(pairs: Record<string, string>): Pick<Row, 'toV1' | 'toBeta'> {
  const back = Object.fromEntries(Object.entries(pairs).map(([b, v]) => [v, b]))
  return {
    toV1: (v) => (typeof v === 'string' ? (pairs[v] ?? v) : v),
    toBeta: (v) => (typeof v === 'string' ? (back[v] ?? v) : v),
  }
}

/** The fields every v1beta1 object carries at its top level (TypeMeta, inlined). */
export const ENVELOPE: Row[] = [
  { beta: 'id', v1: 'metadata.name' },
  { beta: 'generateName', v1: 'metadata.generateName', mode: 'keep' },
  { beta: 'namespace', v1: 'metadata.namespace', mode: 'keep' },
  { beta: 'uid', v1: 'metadata.uid', mode: 'read' },
  { beta: 'creationTimestamp', v1: 'metadata.creationTimestamp', mode: 'read' },
  // v1beta1 resourceVersions are integers; the routes take them apart for optimistic locking.
  {
    beta: 'resourceVersion',
    v1: 'metadata.resourceVersion',
    mode: 'read',
    toBeta: (v) => (v === undefined ? undefined : Number(v)),
  },
  { beta: 'deletionTimestamp', v1: 'metadata.deletionTimestamp', mode: 'read' },
  { beta: 'labels', v1: 'metadata.labels' },
  // Annotations hold other clients' bookkeeping (kubectl's last-applied): a v1beta1 PUT without them keeps them.
  { beta: 'annotations', v1: 'metadata.annotations', mode: 'keep' },
]

// 2014 restartPolicy is an object with one key: {"always": {}}.
const RESTART: Record<string, string> = { always: 'Always', onFailure: 'OnFailure', never: 'Never' }
const restartPolicy: Pick<Row, 'toV1' | 'toBeta'> = {
  toV1: (v) => {
    if (typeof v === 'string') return v
    const key = Object.keys((v as Json | null) ?? {})[0]
    return key === undefined ? undefined : (RESTART[key] ?? key)
  },
  toBeta: (v) => {
    const key = Object.entries(RESTART).find(([, name]) => name === v)?.[0]
    return key ? { [key]: {} } : undefined
  },
}

const PORT: Row[] = [
  { beta: 'name', v1: 'name' },
  { beta: 'containerPort', v1: 'containerPort' },
  { beta: 'hostPort', v1: 'hostPort' },
  { beta: 'protocol', v1: 'protocol' },
  { beta: 'hostIP', v1: 'hostIP' },
]

const ENV: Row[] = [
  { beta: 'name', v1: 'name' },
  { beta: 'value', v1: 'value' },
]

const MOUNT: Row[] = [
  { beta: 'name', v1: 'name' },
  { beta: 'mountPath', v1: 'mountPath' },
  { beta: 'readOnly', v1: 'readOnly' },
]

const PROBE: Row[] = [
  { beta: 'httpGet.path', v1: 'httpGet.path' },
  { beta: 'httpGet.port', v1: 'httpGet.port' },
  { beta: 'httpGet.host', v1: 'httpGet.host' },
  { beta: 'tcpSocket.port', v1: 'tcpSocket.port' },
  { beta: 'exec.command', v1: 'exec.command' },
  { beta: 'initialDelaySeconds', v1: 'initialDelaySeconds' },
  { beta: 'timeoutSeconds', v1: 'timeoutSeconds' },
]

const CONTAINER: Row[] = [
  { beta: 'name', v1: 'name' },
  { beta: 'image', v1: 'image' },
  { beta: 'command', v1: 'command' },
  { beta: 'workingDir', v1: 'workingDir' },
  { beta: 'ports', v1: 'ports', sub: { rows: PORT, key: 'containerPort' } },
  { beta: 'env', v1: 'env', sub: { rows: ENV, key: 'name' } },
  { beta: 'volumeMounts', v1: 'volumeMounts', sub: { rows: MOUNT, key: 'mountPath' } },
  { beta: 'livenessProbe', v1: 'livenessProbe', sub: { rows: PROBE } },
  // memory in bytes and cpu in millicores, as the 2014 manifest counted them; 0 means unlimited.
  {
    beta: 'memory',
    v1: 'resources.limits.memory',
    toV1: (v) => (typeof v === 'number' && v > 0 ? String(v) : undefined),
    toBeta: (v) => (v === undefined ? undefined : (quantityToNumber(v as string) ?? undefined)),
  },
  {
    beta: 'cpu',
    v1: 'resources.limits.cpu',
    toV1: (v) => (typeof v === 'number' && v > 0 ? `${v}m` : undefined),
    toBeta: (v) => (v === undefined ? undefined : (quantityToMilli(v as string) ?? undefined)),
  },
  { beta: 'privileged', v1: 'securityContext.privileged' },
  {
    beta: 'imagePullPolicy',
    v1: 'imagePullPolicy',
    ...valueMap({ PullAlways: 'Always', PullNever: 'Never', PullIfNotPresent: 'IfNotPresent' }),
  },
]

const VOLUME: Row[] = [
  { beta: 'name', v1: 'name' },
  { beta: 'source.emptyDir', v1: 'emptyDir' },
  { beta: 'source.hostDir.path', v1: 'hostPath.path' },
  { beta: 'source.persistentDisk', v1: 'gcePersistentDisk' },
  { beta: 'source.gitRepo', v1: 'gitRepo' },
]

/** PodState as a pod's (or a pod template's) desiredState: the manifest and the host. */
export const POD_DESIRED: Row[] = [
  { beta: 'desiredState.manifest.version', v1: '', mode: 'read', toBeta: () => 'v1beta1' },
  { beta: 'desiredState.manifest.containers', v1: 'spec.containers', sub: { rows: CONTAINER, key: 'name' } },
  { beta: 'desiredState.manifest.volumes', v1: 'spec.volumes', sub: { rows: VOLUME, key: 'name' } },
  { beta: 'desiredState.manifest.restartPolicy', v1: 'spec.restartPolicy', ...restartPolicy },
  { beta: 'desiredState.manifest.dnsPolicy', v1: 'spec.dnsPolicy', mode: 'keep' },
  // The scheduler's binding sets the host; a PUT that leaves it out does not unbind the pod.
  { beta: 'desiredState.host', v1: 'spec.nodeName', mode: 'keep' },
  { beta: 'nodeSelector', v1: 'spec.nodeSelector' },
]

const PHASE: Record<string, string> = {
  Pending: 'Waiting',
  Running: 'Running',
  Succeeded: 'Succeeded',
  Failed: 'Terminated',
  Unknown: 'Unknown',
}

/** ContainerStatus list -> the 2014 `info` map keyed by container name (`terminated` was `termination`). */
function info(statuses: unknown, pod: Json): unknown {
  if (!Array.isArray(statuses) || statuses.length === 0) return undefined
  const podIP = (pod.status as Json | undefined)?.podIP
  const out: Json = {}
  for (const s of statuses as Json[]) {
    const state = (s.state ?? {}) as Json
    const mapped: Json = {}
    if (state.waiting) mapped.waiting = state.waiting
    if (state.running) mapped.running = state.running
    if (state.terminated) mapped.termination = state.terminated
    out[s.name as string] = {
      state: mapped,
      restartCount: s.restartCount ?? 0,
      ready: s.ready ?? false,
      ...(podIP ? { podIP } : {}),
      image: s.image,
      ...(s.imageID ? { imageID: s.imageID } : {}),
      ...(s.containerID ? { containerID: s.containerID } : {}),
    }
  }
  return out
}

/** The observed PodState: never written through v1beta1 (a PUT's currentState is silently ignored). */
const POD_CURRENT: Row[] = [
  {
    beta: 'currentState.status',
    v1: 'status.phase',
    mode: 'read',
    toBeta: (v) => (typeof v === 'string' ? (PHASE[v] ?? v) : undefined),
  },
  { beta: 'currentState.message', v1: 'status.message', mode: 'read' },
  { beta: 'currentState.host', v1: 'spec.nodeName', mode: 'read' },
  { beta: 'currentState.hostIP', v1: 'status.hostIP', mode: 'read' },
  { beta: 'currentState.podIP', v1: 'status.podIP', mode: 'read' },
  { beta: 'currentState.info', v1: 'status.containerStatuses', mode: 'read', toBeta: info },
]

export const POD_ROWS: Row[] = [
  ...ENVELOPE,
  // The manifest's version first, then the id and uuid a pod's manifest repeats (a template's has neither).
  POD_DESIRED[0]!,
  { beta: 'desiredState.manifest.id', v1: 'metadata.name', mode: 'read' },
  { beta: 'desiredState.manifest.uuid', v1: 'metadata.uid', mode: 'read' },
  ...POD_DESIRED.slice(1),
  ...POD_CURRENT,
]

/** 2014 clients often named a pod only in its manifest: that id is the pod's when `id` is missing. */
export function podPreDecode(beta: Json): Json {
  const manifestId = ((beta.desiredState as Json | undefined)?.manifest as Json | undefined)?.id
  if (beta.id === undefined && beta.generateName === undefined && typeof manifestId === 'string')
    return { ...beta, id: manifestId }
  return beta
}
