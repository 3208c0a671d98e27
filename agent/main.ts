// The node agent's entry point (`npm run agent -- --kubeconfig <file> --node-name <name>`): registers the Node, keeps
// its status alive, and runs the pods bound to it as host processes until SIGINT/SIGTERM, when it stops them.
import { mkdirSync } from 'node:fs'
import { eventRecorder } from './events.ts'
import { FlagError, parseFlags, USAGE } from './flags.ts'
import { KubeClient } from './kube-client.ts'
import { loadKubeconfig } from './kubeconfig.ts'
import { NodeHeartbeat } from './node-heartbeat.ts'
import { hostFacts, nodeResources } from './node-object.ts'
import { PodManager } from './pod-manager.ts'

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
  const facts = hostFacts(config.nodeIP, config.dataDir)
  let fatal: ((e: Error) => void) | null = null
  const failed = new Promise<Error>((resolve) => (fatal = resolve))
  const heartbeat = new NodeHeartbeat(client, config, facts, log, (e) => fatal?.(e))
  await heartbeat.register()
  heartbeat.start()
  const pods = new PodManager({
    config,
    client,
    hostIP: facts.internalIP,
    allocatable: nodeResources(facts, config.maxPods),
    event: eventRecorder(client, config.nodeName, log),
    log,
  })
  void pods.run()
  log(`node ${config.nodeName} (${facts.internalIP}) serving pods from ${client.server}; data in ${config.dataDir}`)
  const signalled = new Promise<string>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig))
  })
  const outcome = await Promise.race([signalled, failed])
  heartbeat.stop()
  await pods.stop()
  if (outcome instanceof Error) {
    log(outcome.message)
    return 1
  }
  log(`${outcome}: stopped`)
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    log(`fatal: ${(e as Error).stack ?? e}`)
    process.exit(1)
  },
)
