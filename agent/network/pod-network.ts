// --pod-network: `host` (every pod on the host's network, podIP = hostIP) or `bridge` (a network namespace per pod on
// a bridge, bridge-network.ts). An agent that cannot build the bridge network refuses to start, saying why, rather
// than run pods half networked (kube's kubelet without a working CNI plugin keeps its Node NotReady).
import type { ApiServiceRoute } from './api-service.ts'
import { NetworkError, succeeds } from './ip-command.ts'
import { BridgeNetwork } from './bridge-network.ts'
import { CidrError, parseCidr } from './ipam.ts'

export const POD_NETWORKS = ['host', 'bridge'] as const
export type PodNetworkChoice = (typeof POD_NETWORKS)[number]

export interface NetworkContext {
  node: string
  dataDir: string
  /** The runtime's name (process, docker, podman). */
  runtime: string
  /** The registered Node's spec.podCIDR, which wins over --pod-cidr. */
  nodePodCIDR?: string
  flagPodCIDR?: string
  /** The `kubernetes` Service to DNAT to a loopback API server (api-service.ts), when the agent's server is one. */
  apiService?: ApiServiceRoute | null
}

const refuse = (why: string) => new NetworkError(`--pod-network bridge: ${why}`)

/** What `bridge` needs of the host and the runtime, checked before the Node is registered; throws NetworkError. */
export function checkPodNetwork(choice: PodNetworkChoice, runtime: string) {
  if (choice === 'host') return
  if (process.platform !== 'linux') throw refuse(`network namespaces need Linux, and this is ${process.platform}`)
  if (process.getuid?.() !== 0) throw refuse('the agent must run as root to create network namespaces and veths')
  if (!succeeds('ip', ['-V'])) throw refuse('`ip` (iproute2) is not on the PATH')
  if (!succeeds('iptables', ['-w', '-t', 'nat', '-L', 'POSTROUTING', '-n']))
    throw refuse('`iptables` does not work here')
  if (runtime === 'docker')
    throw refuse(
      'the docker runtime cannot join a container to a named network namespace; use --runtime process or podman',
    )
}

/** The bridge network for `bridge` (its host side set up), null for `host`; throws NetworkError saying what lacks. */
export function podNetwork(choice: PodNetworkChoice, ctx: NetworkContext): BridgeNetwork | null {
  if (choice === 'host') return null
  checkPodNetwork(choice, ctx.runtime)
  const text = ctx.nodePodCIDR || ctx.flagPodCIDR
  if (!text)
    throw refuse(`node ${ctx.node} has no spec.podCIDR and no --pod-cidr was given: pods would have no addresses`)
  let cidr: ReturnType<typeof parseCidr>
  try {
    cidr = parseCidr(text)
  } catch (e) {
    if (e instanceof CidrError) throw refuse(e.message)
    throw e
  }
  const net = new BridgeNetwork(ctx.node, text, cidr, ctx.dataDir, ctx.apiService ?? null)
  net.setUpHost()
  return net
}
