// The agent's command line: `npm run agent -- --kubeconfig <file> --node-name <name> [flags]`, read into one config.
import { homedir, hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { parseDuration } from './durations.ts'
import { POD_NETWORKS, type PodNetworkChoice } from './network/pod-network.ts'
import { RUNTIME_CHOICES, type RuntimeChoice } from './runtime/select-runtime.ts'

export interface AgentConfig {
  kubeconfig: string
  nodeName: string
  /** The node's InternalIP, which is also every pod's IP (a process runtime shares the host's network). */
  nodeIP?: string
  /** Where pods' working directories and log files live. */
  dataDir: string
  labels: Record<string, string>
  /** image (with or without tag) → the command a container of that image runs when it names none. */
  imageDefaults: Map<string, string[]>
  /** What runs containers: host processes, docker or podman, or auto (docker, else podman, else processes). */
  runtime: RuntimeChoice
  /** How often node status is computed and, without Leases, posted (kubelet's nodeStatusUpdateFrequency). */
  statusUpdateMs: number
  /** With Leases, how often unchanged node status is still posted (kubelet's nodeStatusReportFrequency). */
  statusReportMs: number
  /** The node Lease's duration; it is renewed at a quarter of it (kubelet's nodeLeaseDurationSeconds). */
  leaseDurationMs: number
  /** Container restart back-off: the first delay and the cap (kubelet: 10s doubling to 5m). */
  backoffInitialMs: number
  backoffMaxMs: number
  maxPods: number
  /** SIGINT/SIGTERM stop the pods' containers too; by default they keep running, as a kubelet's do. */
  stopPodsOnExit: boolean
  /** host: pods share the host's network (podIP = hostIP); bridge: a network namespace per pod (network/). */
  podNetwork: PodNetworkChoice
  /** The pods' address range under bridge when the Node has no spec.podCIDR. */
  podCIDR?: string
}

export const USAGE = `usage: npm run agent -- --kubeconfig <file> --node-name <name> [flags]

  --kubeconfig FILE            kubeconfig with the server, its CA and a token (default: $KUBECONFIG)
  --node-name NAME             the Node this agent registers and serves (default: the host name)
  --node-ip IP                 the node's InternalIP and every pod's IP (default: the first non-loopback IPv4)
  --data-dir DIR               pods' working directories and logs (default: ~/.kubeflare-agent/<node-name>)
  --node-labels k=v,k=v        extra labels for the Node
  --image-default IMAGE=CMD    the command of containers of IMAGE that name none; CMD is a JSON array or words
                               (repeatable; IMAGE without a tag matches every tag)
  --runtime R                  what runs containers: process (host processes, the default), docker or podman
                               (real images through that CLI, on the host's network), or auto (docker, else
                               podman, whichever engine answers, else process)
  --max-pods N                 the pods capacity (default 110)
  --status-update-frequency D  node status interval (default 10s)
  --status-report-frequency D  unchanged node status interval when Leases carry the heartbeat (default 5m)
  --lease-duration D           node Lease duration, renewed every quarter of it (default 40s)
  --backoff-initial D          first container restart back-off (default 10s)
  --backoff-max D              back-off cap (default 5m)
  --pod-network N              host (every pod on the host's network, podIP = hostIP: the default) or bridge (a
                               network namespace per pod on a bridge, addresses from the pod CIDR; Linux, root,
                               iproute2 and iptables; the process or podman runtime)
  --pod-cidr CIDR              the pods' IPv4 range under --pod-network bridge when the Node has no spec.podCIDR
  --stop-pods-on-exit[=BOOL]   stop the containers when the agent is stopped (default false: they keep running
                               and the next agent on this --data-dir carries on with them, as after a kubelet restart)
`

export class FlagError extends Error {}

/** Reads argv (without node and the script) and the environment into the agent's config. */
export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const values = new Map<string, string[]>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument ${JSON.stringify(arg)}`)
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
    const value = eq > 0 ? arg.slice(eq + 1) : BOOLEAN.has(name) ? 'true' : argv[++i]
    if (value === undefined) throw new FlagError(`flag --${name} needs a value`)
    if (!KNOWN.has(name)) throw new FlagError(`unknown flag --${name}`)
    values.set(name, [...(values.get(name) ?? []), value])
  }
  const one = (name: string) => values.get(name)?.at(-1)
  const duration = (name: string, fallback: string) => {
    try {
      return parseDuration(one(name) ?? fallback)
    } catch (e) {
      throw new FlagError(`--${name}: ${(e as Error).message}`)
    }
  }
  const bool = (name: string) => {
    const v = one(name) ?? 'false'
    if (v !== 'true' && v !== 'false') throw new FlagError(`--${name}: ${JSON.stringify(v)} is not true or false`)
    return v === 'true'
  }
  const kubeconfig = one('kubeconfig') ?? env.KUBECONFIG
  if (!kubeconfig) throw new FlagError('--kubeconfig is required (or set KUBECONFIG)')
  const nodeName = (one('node-name') ?? hostname()).toLowerCase()
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(nodeName))
    throw new FlagError(`--node-name ${JSON.stringify(nodeName)} is not a valid node name (a DNS subdomain)`)
  const maxPods = Number(one('max-pods') ?? '110')
  if (!Number.isInteger(maxPods) || maxPods < 1) throw new FlagError('--max-pods must be a positive integer')
  return {
    kubeconfig: resolve(kubeconfig),
    nodeName,
    nodeIP: one('node-ip'),
    dataDir: resolve(one('data-dir') ?? join(homedir(), '.kubeflare-agent', nodeName)),
    labels: parseLabels(values.get('node-labels') ?? []),
    imageDefaults: parseImageDefaults(values.get('image-default') ?? []),
    runtime: runtimeChoice(one('runtime') ?? 'process'),
    statusUpdateMs: duration('status-update-frequency', '10s'),
    statusReportMs: duration('status-report-frequency', '5m'),
    leaseDurationMs: duration('lease-duration', '40s'),
    backoffInitialMs: duration('backoff-initial', '10s'),
    backoffMaxMs: duration('backoff-max', '5m'),
    maxPods,
    stopPodsOnExit: bool('stop-pods-on-exit'),
    podNetwork: podNetworkChoice(one('pod-network') ?? 'host'),
    ...(one('pod-cidr') ? { podCIDR: one('pod-cidr') } : {}),
  }
}

/** Flags that are on when named alone (`--flag`), or `--flag=true|false`. */
const BOOLEAN = new Set(['stop-pods-on-exit'])

const KNOWN = new Set([
  'kubeconfig',
  'node-name',
  'node-ip',
  'data-dir',
  'node-labels',
  'image-default',
  'runtime',
  'max-pods',
  'status-update-frequency',
  'status-report-frequency',
  'lease-duration',
  'backoff-initial',
  'backoff-max',
  'stop-pods-on-exit',
  'pod-network',
  'pod-cidr',
])

function parseLabels(items: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const pair of items.flatMap((s) => s.split(',')).filter(Boolean)) {
    const eq = pair.indexOf('=')
    if (eq <= 0) throw new FlagError(`--node-labels: ${JSON.stringify(pair)} is not key=value`)
    out[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return out
}

function parseImageDefaults(items: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const item of items) {
    const eq = item.indexOf('=')
    if (eq <= 0) throw new FlagError(`--image-default: ${JSON.stringify(item)} is not IMAGE=COMMAND`)
    const text = item.slice(eq + 1).trim()
    let command: string[]
    if (text.startsWith('[')) {
      const parsed = JSON.parse(text) as unknown
      if (!Array.isArray(parsed) || !parsed.every((s) => typeof s === 'string') || parsed.length === 0)
        throw new FlagError(`--image-default: ${JSON.stringify(text)} is not a JSON array of strings`)
      command = parsed
    } else command = text.split(/\s+/).filter(Boolean)
    if (command.length === 0) throw new FlagError(`--image-default: ${item} names no command`)
    out.set(item.slice(0, eq), command)
  }
  return out
}

function runtimeChoice(text: string): RuntimeChoice {
  const choice = RUNTIME_CHOICES.find((c) => c === text)
  if (!choice) throw new FlagError(`--runtime: ${JSON.stringify(text)} is not one of ${RUNTIME_CHOICES.join(', ')}`)
  return choice
}

function podNetworkChoice(text: string): PodNetworkChoice {
  const choice = POD_NETWORKS.find((c) => c === text)
  if (!choice) throw new FlagError(`--pod-network: ${JSON.stringify(text)} is not one of ${POD_NETWORKS.join(', ')}`)
  return choice
}
