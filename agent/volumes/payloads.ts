// The files of the API-data volumes as the kubelet's plugins make them (pkg/volume/configmap, secret, downwardapi,
// projected: MakePayload / CollectData): which keys become which paths with which modes, `optional`, and the errors
// kube reports in a FailedMount event (`configmap "x" not found`, `configmap references non-existent config key: k`).
// A projected serviceAccountToken is asked of the TokenRequest API bound to the pod, as the node's own identity.
import { isNotFound, type KubeClient } from '../kube-client.ts'
import type { Obj } from '../obj.ts'
import { quantity } from '../pod-env.ts'
import type { FileProjection, Payload } from './atomic-writer.ts'

/** kube's default mode for configMap, secret, downwardAPI and projected volumes (0644). */
export const DEFAULT_MODE = 0o644

/** What reading a pod's API data needs. */
export interface SourceContext {
  pod: Obj
  client: KubeClient
  allocatable: Obj
  /** The pod's fsGroup: a projected token file is then 0600 (0640 once the group is given), as kubelet makes it. */
  fsGroup?: number
  /** A token for the pod's service account (cached by the caller; TokenRequest otherwise). */
  token(audience: string | undefined, expirationSeconds: number): Promise<string>
}

/** The kubelet's configmap/secret managers answer NotFound with the singular resource (`configmap "x" not found`). */
async function fetch(ctx: SourceContext, kind: 'configmaps' | 'secrets', name: string): Promise<Obj | null> {
  try {
    return await ctx.client.get(`/api/v1/namespaces/${ctx.pod.metadata.namespace}/${kind}/${name}`)
  } catch (e) {
    if (isNotFound(e)) return null
    throw e
  }
}

const notFound = (kind: 'configmaps' | 'secrets', name: string) =>
  new Error(`${kind === 'configmaps' ? 'configmap' : 'secret'} ${JSON.stringify(name)} not found`)

/** configmap.MakePayload / secret.MakePayload: every key, or the items asked for (`optional` skips missing keys). */
function keyPayload(
  entries: Map<string, Buffer>,
  items: Obj[] | undefined,
  defaultMode: number,
  optional: boolean,
  what: string,
): Payload {
  const out: Payload = new Map()
  if (!items?.length) {
    for (const [k, data] of entries) out.set(k, { data, mode: defaultMode })
    return out
  }
  for (const item of items) {
    const data = entries.get(item.key)
    if (data === undefined) {
      if (optional) continue
      throw new Error(`${what} references non-existent ${what === 'configmap' ? 'config' : 'secret'} key: ${item.key}`)
    }
    out.set(item.path, { data, mode: item.mode ?? defaultMode })
  }
  return out
}

function configMapEntries(cm: Obj | null): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  for (const [k, v] of Object.entries((cm?.data ?? {}) as Record<string, string>)) out.set(k, Buffer.from(v, 'utf8'))
  for (const [k, v] of Object.entries((cm?.binaryData ?? {}) as Record<string, string>))
    out.set(k, Buffer.from(v, 'base64'))
  return out
}

function secretEntries(s: Obj | null): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  for (const [k, v] of Object.entries((s?.data ?? {}) as Record<string, string>)) out.set(k, Buffer.from(v, 'base64'))
  return out
}

export async function configMapPayload(ctx: SourceContext, src: Obj, defaultMode: number): Promise<Payload> {
  const cm = await fetch(ctx, 'configmaps', src.name)
  if (!cm && src.optional !== true) throw notFound('configmaps', src.name)
  return keyPayload(configMapEntries(cm), src.items, defaultMode, src.optional === true, 'configmap')
}

export async function secretPayload(ctx: SourceContext, src: Obj, defaultMode: number): Promise<Payload> {
  const name = src.secretName ?? src.name
  const s = await fetch(ctx, 'secrets', name)
  if (!s && src.optional !== true) throw notFound('secrets', name)
  return keyPayload(secretEntries(s), src.items, defaultMode, src.optional === true, 'secret')
}

/** fieldpath.FormatMap: `key="value"` lines in key order, Go-quoted. */
function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(m![k])}`)
    .join('\n')
}

/** fieldpath.ExtractFieldPathAsString for what a downwardAPI volume may name. */
function fieldValue(pod: Obj, path: string): string {
  const key = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path)
  if (key) return pod.metadata?.[key[1]!]?.[key[2]!] ?? ''
  switch (path) {
    case 'metadata.labels':
      return formatMap(pod.metadata?.labels)
    case 'metadata.annotations':
      return formatMap(pod.metadata?.annotations)
    case 'metadata.name':
    case 'metadata.namespace':
    case 'metadata.uid':
      return pod.metadata?.[path.slice('metadata.'.length)] ?? ''
    default:
      throw new Error(`unsupported fieldPath: ${path}`)
  }
}

/** resource.ExtractResourceValueByContainerNameAndNodeAllocatable: ceil(value / divisor); unset limits: allocatable. */
function resourceValue(pod: Obj, ref: Obj, allocatable: Obj): string {
  const containers = [...((pod.spec?.containers ?? []) as Obj[]), ...((pod.spec?.initContainers ?? []) as Obj[])]
  const c = containers.find((x) => x.name === ref.containerName)
  if (!c) throw new Error(`container ${ref.containerName} not found`)
  const [kind, name] = String(ref.resource ?? '').split('.') as [string, string]
  const given = c.resources?.[kind]?.[name] ?? (kind === 'limits' ? allocatable[name] : undefined)
  const value = given === undefined ? 0 : quantity(given)
  const divisor = ref.divisor ? quantity(ref.divisor) : 1
  return String(Math.ceil(value / divisor))
}

/** downwardapi.CollectData. */
export function downwardPayload(ctx: SourceContext, items: Obj[], defaultMode: number): Payload {
  const out: Payload = new Map()
  for (const item of items ?? []) {
    const data = item.fieldRef
      ? fieldValue(ctx.pod, item.fieldRef.fieldPath)
      : resourceValue(ctx.pod, item.resourceFieldRef ?? {}, ctx.allocatable)
    out.set(item.path, { data: Buffer.from(data, 'utf8'), mode: item.mode ?? defaultMode })
  }
  return out
}

/** projected.collectData: every source's files in one payload; errors aggregated as kube's utilerrors does. */
export async function projectedPayload(ctx: SourceContext, sources: Obj[], defaultMode: number): Promise<Payload> {
  const out: Payload = new Map()
  const errors: string[] = []
  const add = (p: Payload) => {
    for (const [k, v] of p) out.set(k, v)
  }
  for (const s of sources ?? []) {
    try {
      if (s.configMap) add(await configMapPayload(ctx, s.configMap, defaultMode))
      else if (s.secret) add(await secretPayload(ctx, s.secret, defaultMode))
      else if (s.downwardAPI) add(downwardPayload(ctx, s.downwardAPI.items ?? [], defaultMode))
      else if (s.serviceAccountToken) {
        const t = s.serviceAccountToken as Obj
        const token = await ctx.token(t.audience || undefined, t.expirationSeconds ?? 3600)
        const mode = ctx.fsGroup !== undefined ? 0o600 : defaultMode
        out.set(t.path, { data: Buffer.from(token, 'utf8'), mode } satisfies FileProjection)
      } else if (s.clusterTrustBundle) errors.push('clusterTrustBundle projections are not supported by this node')
    } catch (e) {
      errors.push((e as Error).message)
    }
  }
  if (errors.length === 1) throw new Error(errors[0])
  if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`)
  return out
}
