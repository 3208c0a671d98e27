// The node agent's entry point (`npm run agent -- --kubeconfig <file> --node-name <name>`): registers the Node, keeps
// its status alive, and runs the pods bound to it as host processes until SIGINT/SIGTERM, when it leaves them running
// for the next agent (or, with --stop-pods-on-exit, stops them). Killed, it leaves them running too.
import { mkdirSync } from 'node:fs'
import { eventRecorder } from './events.ts'
import { FlagError, parseFlags, USAGE } from './flags.ts'
import { KubeClient, KubeError } from './kube-client.ts'
import { loadKubeconfig } from './kubeconfig.ts'
import { NetworkError } from './network/ip-command.ts'
import { apiServiceRoute } from './network/api-service.ts'
import { checkPodNetwork, podNetwork } from './network/pod-network.ts'
import { NodeHeartbeat, VirtualNodeError } from './node-heartbeat.ts'
import { hostFacts, nodeResources } from './node-object.ts'
import { PodManager } from './pod-manager.ts'
import { RuntimeError, selectRuntime } from './runtime/select-runtime.ts'
import { serveAttach } from './tunnel/attach-server.ts'
import { serveExec } from './tunnel/exec-server.ts'
import { serveLog } from './tunnel/log-server.ts'
import { servePortForward } from './tunnel/portforward-server.ts'
import { serveProxy } from './tunnel/proxy-server.ts'
import { streamOpener } from './tunnel/stream-opener.ts'
import { type Opener, TunnelClient, tunnelProtocols } from './tunnel/tunnel-client.ts'
import { TunnelSocket } from './tunnel/tunnel-socket.ts'

const log = (msg: string) => process.stderr.write(`${new Date().toISOString()} kubeflare-agent: ${msg}\n`)

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE)
    return 0
  }
  let config: ReturnType<typeof parseFlags>
  try {
    config = parseFlags(argv)
  } catch (e) {
    if (!(e instanceof FlagError)) throw e
    process.stderr.write(`error: ${e.message}\n\n${USAGE}`)
    return 2
  }
  mkdirSync(config.dataDir, { recursive: true })
  const client = new KubeClient(loadKubeconfig(config.kubeconfig))
  const runtime = await selectRuntime(config.runtime, { ...config, node: config.nodeName, log })
  // A host that cannot give pods their own network is refused before its Node is registered.
  checkPodNetwork(config.podNetwork, runtime.name)
  const facts = { ...hostFacts(config.nodeIP, config.dataDir), runtime }
  let fatal: ((e: Error) => void) | null = null
  const failed = new Promise<Error>((resolve) => (fatal = resolve))
  const heartbeat = new NodeHeartbeat(client, config, facts, log, (e) => fatal?.(e))
  // A device may come up before its network or the server: registration is retried until it answers, except when
  // the answer is a refusal (bad token, no permission, a virtual node), which retrying cannot fix.
  let node: Awaited<ReturnType<NodeHeartbeat['register']>>
  for (let delay = 1000; ; delay = Math.min(delay * 2, 30_000)) {
    try {
      node = await heartbeat.register()
      break
    } catch (e) {
      if (e instanceof KubeError || e instanceof VirtualNodeError) throw e
      log(`cannot reach ${client.server} (${(e as Error).message}): retrying in ${delay / 1000}s`)
      await new Promise((r) => setTimeout(r, delay))
    }
  }
  // --pod-network bridge: the bridge and its rules, or a refusal saying what this host lacks (no half-working pods).
  const network = podNetwork(config.podNetwork, {
    node: config.nodeName,
    dataDir: config.dataDir,
    runtime: runtime.name,
    nodePodCIDR: node.spec?.podCIDR,
    flagPodCIDR: config.podCIDR,
    apiService: config.podNetwork === 'bridge' ? await apiServiceRoute(client, log) : null,
  })
  await heartbeat.start()
  const pods = new PodManager({
    config,
    client,
    hostIP: facts.internalIP,
    allocatable: nodeResources(facts, config.maxPods),
    event: eventRecorder(client, config.nodeName, log),
    log,
    runtime,
    network,
  })
  void pods.run()
  const tunnel = startTunnel(
    client,
    config.nodeName,
    streamOpener({
      log: (stream) => serveLog(stream, pods),
      exec: (stream) => serveExec(stream, pods),
      attach: (stream) => serveAttach(stream, pods),
      portforward: (stream) => servePortForward(stream, pods),
      proxy: (stream) => serveProxy(stream, pods),
    }),
  )
  if (network) log(`pod network: bridge ${network.bridge} with ${network.cidrText}`)
  if (network?.apiService)
    log(
      `pod network: the kubernetes Service ${network.apiService.clusterIP}:${network.apiService.port} leads to 127.0.0.1:${network.apiService.targetPort}`,
    )
  log(`node ${config.nodeName} (${facts.internalIP}) serving pods from ${client.server}; data in ${config.dataDir}`)
  const signalled = new Promise<string>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig))
  })
  const outcome = await Promise.race([signalled, failed])
  heartbeat.stop()
  tunnel.stop()
  await pods.stop(config.stopPodsOnExit)
  if (outcome instanceof Error) {
    log(outcome.message)
    return 1
  }
  log(`${outcome}: stopped`)
  return 0
}

/**
 * The tunnel to the node's Durable Object. A refused dial is asked again as a plain request, whose Status says why
 * (no permission, a virtual node), logged when it changes.
 */
function startTunnel(client: KubeClient, node: string, opener: Opener): TunnelClient {
  const path = `/api/v1/nodes/${node}/tunnel`
  const url = client.server.replace(/^http/, 'ws') + path
  let lastWhy = ''
  const tunnel = new TunnelClient(() => new TunnelSocket(url, tunnelProtocols(client.token)), opener, log, {
    connected: (up) => {
      lastWhy = ''
      log(up ? `tunnel to ${url} connected` : 'tunnel lost: reconnecting')
    },
    dialFailed: () => {
      client.get(path).then(
        () => undefined,
        (e: unknown) => {
          const why = (e as Error).message
          if (why !== lastWhy) log(`tunnel refused: ${why}`)
          lastWhy = why
        },
      )
    },
  })
  tunnel.start()
  return tunnel
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    log(
      e instanceof KubeError || e instanceof VirtualNodeError || e instanceof RuntimeError || e instanceof NetworkError
        ? (e as Error).message
        : `fatal: ${(e as Error).stack ?? e}`,
    )
    process.exit(1)
  },
)
