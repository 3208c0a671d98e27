// A container's environment and command as the kubelet makes them (makeEnvironmentVariables): envFrom, then env in
// order, each value expanded against the variables before it with kube's $(VAR) syntax; fieldRef, resourceFieldRef,
// configMapKeyRef and secretKeyRef resolved; command and args expanded against the result; the `kubernetes` Service's
// variables (KUBERNETES_SERVICE_HOST...) pointing at the API server the agent itself uses (for a bridge pod and a server
// on the node's loopback, at the Service's ClusterIP, which the node DNATs there: network/api-service.ts).
import { isNotFound, type KubeClient } from './kube-client.ts'
import type { Obj } from './obj.ts'

/** Why a container cannot be configured: its waiting reason is CreateContainerConfigError with this message. */
export class ConfigError extends Error {}

/** kube's expansion.Expand: $(VAR) from `lookup` (left as written when undefined), $$ an escaped $. */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = ''
  let checkpoint = 0
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue
    out += input.slice(checkpoint, cursor)
    const rest = input.slice(cursor + 1)
    let read: string
    let advance = 1
    if (rest[0] === '$') read = '$'
    else if (rest[0] === '(') {
      const close = rest.indexOf(')', 1)
      if (close > 0) {
        const name = rest.slice(1, close)
        read = lookup(name) ?? `$(${name})`
        advance = close + 1
      } else read = '$('
    } else read = `$${rest[0]}`
    out += read
    cursor += advance
    checkpoint = cursor + 1
  }
  return out + input.slice(checkpoint)
}

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
}

/** A resource quantity's value ("500m" → 0.5, "1Gi" → 1073741824, "1e3" → 1000). */
export function quantity(text: string): number {
  const m = /^([+-]?\d*\.?\d+)(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/.exec(String(text).trim())
  if (!m) throw new ConfigError(`invalid quantity ${JSON.stringify(text)}`)
  return Number(m[1]) * (m[2] !== undefined ? 10 ** Number(m[2]) : SUFFIX[m[3] ?? '']!)
}

function fieldRef(pod: Obj, path: string, hostIP: string, podIP: string): string {
  const key = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path)
  if (key) return pod.metadata?.[key[1]!]?.[key[2]!] ?? ''
  switch (path) {
    case 'metadata.name':
      return pod.metadata?.name ?? ''
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? ''
    case 'metadata.uid':
      return pod.metadata?.uid ?? ''
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? ''
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? ''
    case 'status.hostIP':
    case 'status.hostIPs':
      return hostIP
    case 'status.podIP':
    case 'status.podIPs':
      return podIP
    default:
      throw new ConfigError(`unsupported fieldPath: ${path}`)
  }
}

function resourceFieldRef(container: Obj, ref: Obj, allocatable: Obj): string {
  const [kind, name] = String(ref.resource ?? '').split('.') as [string, string]
  const given = container.resources?.[kind]?.[name] ?? (kind === 'limits' ? allocatable[name] : undefined)
  const value = given === undefined ? 0 : quantity(given)
  const divisor = ref.divisor ? quantity(ref.divisor) : 1
  return String(Math.ceil(value / divisor))
}

/**
 * The variables kubelet derives from the `kubernetes` Service (envvars.FromServices on the master service, which
 * getServiceEnvVarMap always includes), here for the API server the agent dials (`server`, its kubeconfig's URL):
 * a real node has no kube-proxy, so the Service's ClusterIP would lead nowhere (except for a pod on the bridge network
 * whose agent dials a server on the node's loopback: `server` is then the ClusterIP's URL, which the node DNATs to
 * that server, network/api-service.ts). Host and port are the URL's (443 when it names none); the port is also the
 * `https` port, as the Service names its one port. client-go's InClusterConfig, kubectl and the python client read
 * KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT.
 */
export function apiServiceEnv(server: string): Record<string, string> {
  let url: URL
  try {
    url = new URL(server)
  } catch {
    return {}
  }
  // URL keeps an IPv6 host in brackets; kube's variable holds the bare address (clients join host and port).
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = url.port || (url.protocol === 'http:' ? '80' : '443')
  const addr = `tcp://${url.hostname}:${port}`
  return {
    KUBERNETES_SERVICE_HOST: host,
    KUBERNETES_SERVICE_PORT: port,
    KUBERNETES_SERVICE_PORT_HTTPS: port,
    KUBERNETES_PORT: addr,
    [`KUBERNETES_PORT_${port}_TCP`]: addr,
    [`KUBERNETES_PORT_${port}_TCP_PROTO`]: 'tcp',
    [`KUBERNETES_PORT_${port}_TCP_PORT`]: port,
    [`KUBERNETES_PORT_${port}_TCP_ADDR`]: host,
  }
}

export interface EnvContext {
  client: KubeClient
  hostIP: string
  /** The pod's own address when it has a network namespace of its own (--pod-network bridge); else the host's. */
  podIP?: string
  /** The node's allocatable resources (limits a container does not set). */
  allocatable: Obj
  base: Record<string, string>
  /** The API server's URL the pod dials (the agent's, or the Service's ClusterIP), for the Service's variables. */
  apiServer?: string
}

/** The container's environment, or a ConfigError naming what is missing. */
export async function containerEnv(pod: Obj, container: Obj, ctx: EnvContext): Promise<Record<string, string>> {
  const ns = pod.metadata.namespace as string
  const cache = new Map<string, Obj | null>()
  const source = async (kind: 'configmaps' | 'secrets', name: string, optional: boolean): Promise<Obj | null> => {
    const key = `${kind}/${name}`
    if (!cache.has(key)) {
      try {
        cache.set(key, await ctx.client.get(`/api/v1/namespaces/${ns}/${kind}/${name}`))
      } catch (e) {
        if (!isNotFound(e)) throw new ConfigError(`${kind} ${JSON.stringify(name)}: ${(e as Error).message}`)
        cache.set(key, null)
      }
    }
    const found = cache.get(key)!
    if (!found && !optional) throw new ConfigError(`${kind.slice(0, -1)} "${name}" not found`)
    return found
  }
  const entries = (o: Obj | null, secret: boolean): [string, string][] => {
    const fromData = Object.entries((o?.data ?? {}) as Record<string, string>).map(
      ([k, v]) => [k, secret ? Buffer.from(v, 'base64').toString('utf8') : v] as [string, string],
    )
    const binary = secret
      ? []
      : Object.entries((o?.binaryData ?? {}) as Record<string, string>).map(
          ([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')] as [string, string],
        )
    return [...fromData, ...binary]
  }
  const env: Record<string, string> = { ...ctx.base }
  for (const from of (container.envFrom ?? []) as Obj[]) {
    const ref = from.configMapRef ?? from.secretRef
    const secret = Boolean(from.secretRef)
    const o = await source(secret ? 'secrets' : 'configmaps', ref.name, ref.optional === true)
    for (const [k, v] of entries(o, secret)) env[`${from.prefix ?? ''}${k}`] = v
  }
  // Service variables come last, under the container's own (makeEnvironmentVariables), yet $(VAR) sees them.
  const services = ctx.apiServer ? apiServiceEnv(ctx.apiServer) : {}
  const lookup = (name: string) => env[name] ?? services[name]
  for (const e of (container.env ?? []) as Obj[]) {
    if (e.valueFrom === undefined) {
      env[e.name] = expand(e.value ?? '', lookup)
      continue
    }
    const vf = e.valueFrom as Obj
    if (vf.fieldRef) env[e.name] = fieldRef(pod, vf.fieldRef.fieldPath, ctx.hostIP, ctx.podIP ?? ctx.hostIP)
    else if (vf.resourceFieldRef) env[e.name] = resourceFieldRef(container, vf.resourceFieldRef, ctx.allocatable)
    else {
      const ref = vf.configMapKeyRef ?? vf.secretKeyRef
      const secret = Boolean(vf.secretKeyRef)
      const o = await source(secret ? 'secrets' : 'configmaps', ref.name, ref.optional === true)
      const value = new Map(entries(o, secret)).get(ref.key)
      if (value !== undefined) env[e.name] = value
      else if (o && ref.optional !== true)
        throw new ConfigError(`couldn't find key ${ref.key} in ${secret ? 'Secret' : 'ConfigMap'} ${ns}/${ref.name}`)
    }
  }
  for (const [k, v] of Object.entries(services)) if (!(k in env)) env[k] = v
  return env
}

/** The argv a container runs: command + args (or the image's configured default + args, or args alone). */
export function containerCommand(
  container: Obj,
  env: Record<string, string>,
  imageDefaults: Map<string, string[]>,
): string[] {
  const lookup = (name: string) => env[name]
  const command = ((container.command ?? []) as string[]).map((s) => expand(s, lookup))
  const args = ((container.args ?? []) as string[]).map((s) => expand(s, lookup))
  if (command.length) return [...command, ...args]
  const image = String(container.image ?? '')
  const fallback = imageDefaults.get(image) ?? imageDefaults.get(untagged(image))
  if (fallback) return [...fallback, ...args]
  if (args.length) return args
  throw new ConfigError(
    `the process runtime needs a command: container ${container.name} names none and no default is configured for image ${JSON.stringify(image)} (start the agent with --image-default ${untagged(image)}=<command>)`,
  )
}

/** An image reference without its tag or digest ("nginx:1.25" → "nginx"). */
export function untagged(image: string): string {
  const at = image.indexOf('@')
  const ref = at >= 0 ? image.slice(0, at) : image
  const slash = ref.lastIndexOf('/')
  const colon = ref.lastIndexOf(':')
  return colon > slash ? ref.slice(0, colon) : ref
}
