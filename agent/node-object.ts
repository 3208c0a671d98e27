// The agent's Node as a kubelet registers it: labels, addresses, capacity and allocatable from the host, nodeInfo,
// and the four conditions, with heartbeat times and transitions kept as the kubelet keeps them.
import { readFileSync, statfsSync } from 'node:fs'
import { arch, cpus, hostname, networkInterfaces, platform, release, totalmem } from 'node:os'
import { isExtendedResource } from '../src/registry/pod-requests.ts'
import type { Obj } from './obj.ts'

export const KUBELET_VERSION = 'v1.33.1-kubeflare-agent'
/** The annotation of nodes the control plane simulates; the agent never serves such a node. */
export const VIRTUAL_NODE_ANNOTATION = 'kubeflare.dev/virtual-node'

/** What the agent learns about its host once, at start. */
export interface HostFacts {
  hostname: string
  internalIP: string
  cpus: number
  memoryBytes: number
  storageBytes: number
  kernelVersion: string
  osImage: string
  machineID: string
  bootID: string
  operatingSystem: string
  architecture: string
  /** The runtime (nodeInfo.containerRuntimeVersion, and the node-agent annotation); the process runtime when none. */
  runtime?: { name: string; version: string }
}

const readTrimmed = (path: string) => {
  try {
    return readFileSync(path, 'utf8').trim()
  } catch {
    return ''
  }
}

/** Go's GOARCH names for Node's os.arch(). */
const GO_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le' }

function firstIPv4(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address
  }
  return '127.0.0.1'
}

function osImage(): string {
  const text = readTrimmed('/etc/os-release')
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text)?.[1]
  return pretty ?? `${platform()} ${release()}`
}

export function hostFacts(nodeIP: string | undefined, dataDir: string): HostFacts {
  let storageBytes = 0
  try {
    const fs = statfsSync(dataDir)
    storageBytes = fs.blocks * fs.bsize
  } catch {
    storageBytes = 0
  }
  return {
    hostname: hostname(),
    internalIP: nodeIP ?? firstIPv4(),
    cpus: cpus().length || 1,
    memoryBytes: totalmem(),
    storageBytes,
    kernelVersion: release(),
    osImage: osImage(),
    machineID: readTrimmed('/etc/machine-id'),
    bootID: readTrimmed('/proc/sys/kernel/random/boot_id'),
    operatingSystem: platform() === 'win32' ? 'windows' : platform(),
    architecture: GO_ARCH[arch()] ?? arch(),
  }
}

/** Kube's quantity for a byte count: Ki as the kubelet reports memory. */
const kibibytes = (bytes: number) => `${Math.floor(bytes / 1024)}Ki`

export function nodeResources(facts: HostFacts, maxPods: number): Obj {
  const resources: Obj = { cpu: String(facts.cpus), memory: kibibytes(facts.memoryBytes), pods: String(maxPods) }
  if (facts.storageBytes > 0) resources['ephemeral-storage'] = kibibytes(facts.storageBytes)
  return resources
}

const READY_MESSAGE = 'kubelet is posting ready status'
const CONDITIONS: [string, string, string, string][] = [
  ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', READY_MESSAGE],
]

/** The conditions as of `now`: heartbeat now, transition kept from `previous` when the status did not change. */
export function nodeConditions(previous: Obj[] | undefined, now: string): Obj[] {
  return CONDITIONS.map(([type, status, reason, message]) => {
    const before = (previous ?? []).find((c) => c.type === type)
    const lastTransitionTime = before && before.status === status ? before.lastTransitionTime : now
    return { type, status, lastHeartbeatTime: now, lastTransitionTime, reason, message }
  })
}

export function nodeStatus(facts: HostFacts, maxPods: number, previous: Obj | undefined, now: string): Obj {
  // kubelet's MachineInfo works on the Node it read: what someone else advertised in capacity (an extended resource,
  // `kubectl patch node --subresource=status`) stays and is allocatable too; an extended resource gone from capacity
  // leaves allocatable (null: a merge patch's delete).
  const capacity: Obj = { ...previous?.capacity, ...nodeResources(facts, maxPods) }
  const allocatable: Obj = { ...capacity }
  for (const name in previous?.allocatable ?? {})
    if (!(name in capacity) && isExtendedResource(name)) allocatable[name] = null
  return {
    capacity,
    allocatable,
    conditions: nodeConditions(previous?.conditions, now),
    addresses: [
      { type: 'InternalIP', address: facts.internalIP },
      { type: 'Hostname', address: facts.hostname },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    nodeInfo: {
      machineID: facts.machineID,
      systemUUID: '',
      bootID: facts.bootID,
      kernelVersion: facts.kernelVersion,
      osImage: facts.osImage,
      containerRuntimeVersion: facts.runtime?.version ?? 'process://1.0.0',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: facts.operatingSystem,
      architecture: facts.architecture,
    },
  }
}

/** The Node the agent registers (kubelet's initialNode): no virtual-node annotation, no pod CIDR. */
export function initialNode(
  name: string,
  facts: HostFacts,
  labels: Record<string, string>,
  maxPods: number,
  now: string,
): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': facts.architecture,
        'beta.kubernetes.io/os': facts.operatingSystem,
        'kubernetes.io/arch': facts.architecture,
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': facts.operatingSystem,
        ...labels,
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'kubeflare.dev/node-agent': facts.runtime?.name ?? 'process',
      },
    },
    spec: {},
    status: nodeStatus(facts, maxPods, undefined, now),
  }
}
