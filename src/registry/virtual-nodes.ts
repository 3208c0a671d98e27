// Virtual nodes: the nodes the control plane simulates itself (KWOK-style), configured in wrangler.toml. Each gets
// a pod CIDR 10.244.<i>.0/24, an InternalIP 10.0.0.<i+10>, Ready conditions and capacity; the simulated kubelet
// acts only for nodes carrying the VIRTUAL_NODE_ANNOTATION, so a real node agent can register others later.
// Past the 256th node the pod CIDRs continue in 10.245.0.0/16 and on, the addresses in 10.0.1.0 and on, so a count
// up to MAX_VIRTUAL_NODES gets distinct, valid addresses.
import type { KubeObject } from '../schema/meta'
import { rfc3339 } from './time'

export const VIRTUAL_NODE_ANNOTATION = 'kubeflare.dev/virtual-node'

interface VirtualNodeConfig {
  name: string
  labels?: Record<string, string>
  capacity?: Record<string, string>
  taints?: { key: string; value?: string; effect: string }[]
}

const DEFAULT_CAPACITY = { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' }

/** The /24 pod CIDRs of 10.244.0.0/16 through 10.255.0.0/16: one per node. */
export const MAX_VIRTUAL_NODES = 12 * 256

/** Parses VIRTUAL_NODES: a count ("10") or a JSON array of VirtualNodeConfig. */
export function parseVirtualNodes(raw: string | undefined): VirtualNodeConfig[] {
  const text = (raw ?? '10').trim()
  if (/^\d+$/.test(text)) {
    const count = Number(text)
    if (count > MAX_VIRTUAL_NODES) throw new Error(`VIRTUAL_NODES may be at most ${MAX_VIRTUAL_NODES}, not ${count}`)
    return Array.from({ length: count }, (_, i) => ({ name: `node-${i + 1}` }))
  }
  const parsed = JSON.parse(text) as unknown
  if (!Array.isArray(parsed)) throw new Error('VIRTUAL_NODES must be a number or a JSON array')
  if (parsed.length > MAX_VIRTUAL_NODES) throw new Error(`VIRTUAL_NODES may list at most ${MAX_VIRTUAL_NODES} nodes`)
  return parsed.map((n, i) => {
    const c = n as VirtualNodeConfig
    if (typeof c.name !== 'string' || !c.name) throw new Error(`VIRTUAL_NODES[${i}].name is required`)
    return c
  })
}

/** The i-th node's pod CIDR: 10.244.<i>.0/24 for the first 256, then 10.245.0.0/24 and on. */
const podCIDR = (i: number) => `10.${244 + Math.floor(i / 256)}.${i % 256}.0/24`

/** The i-th node's address: 10.0.0.<i+10>, carrying on into 10.0.1.0 and beyond. */
const internalIP = (i: number) => `10.0.${Math.floor((i + 10) / 256)}.${(i + 10) % 256}`

/** The Node object for a virtual node, as its kubelet would register it. */
export function virtualNode(config: VirtualNodeConfig, index: number, now: Date): KubeObject {
  const ts = rfc3339(now)
  const capacity = { ...DEFAULT_CAPACITY, ...config.capacity }
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: ts,
    lastTransitionTime: ts,
    reason,
    message,
  })
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: config.name,
      labels: {
        'kubernetes.io/hostname': config.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
        type: 'kwok',
        ...config.labels,
      },
      annotations: { [VIRTUAL_NODE_ANNOTATION]: 'true', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: {
      podCIDR: podCIDR(index),
      podCIDRs: [podCIDR(index)],
      ...(config.taints?.length ? { taints: config.taints } : {}),
    },
    status: {
      capacity,
      allocatable: capacity,
      phase: 'Running',
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: internalIP(index) },
        { type: 'Hostname', address: config.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: '',
        osImage: '',
        containerRuntimeVersion: 'kubeflare://simulated',
        kubeletVersion: 'v1.33.1-kubeflare',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  }
}
