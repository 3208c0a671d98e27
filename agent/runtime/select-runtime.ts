// Which runtime runs this node's containers (--runtime): the process runtime, a docker or podman CLI whose engine
// answers, or auto: docker, else podman, else processes. A CLI on PATH whose engine does not answer (a docker client
// without its daemon) is not picked by auto, and is an error when asked for by name.
import { Cli, onPath } from './cli.ts'
import { CliRuntime } from './cli-runtime.ts'
import { processRuntime } from './process-runtime.ts'
import type { ContainerRuntime } from './runtime.ts'

export type RuntimeChoice = 'process' | 'docker' | 'podman' | 'auto'
export const RUNTIME_CHOICES: readonly RuntimeChoice[] = ['process', 'docker', 'podman', 'auto']

export class RuntimeError extends Error {}

export interface SelectOptions {
  node: string
  backoffInitialMs: number
  backoffMaxMs: number
  dataDir?: string
  log(msg: string): void
}

async function cliRuntime(name: string, options: SelectOptions): Promise<CliRuntime | string> {
  const path = onPath(name)
  if (!path) return `${name} is not on PATH`
  const cli = new Cli(name, path)
  const v = await cli.version()
  if ('error' in v) return `${path} version: ${v.error}`
  return new CliRuntime(cli, { ...options, version: v.version })
}

export async function selectRuntime(choice: RuntimeChoice, options: SelectOptions): Promise<ContainerRuntime> {
  if (choice === 'process') return processRuntime
  if (choice !== 'auto') {
    const r = await cliRuntime(choice, options)
    if (typeof r === 'string') throw new RuntimeError(`--runtime ${choice}: ${r}`)
    return r
  }
  for (const name of ['docker', 'podman']) {
    const r = await cliRuntime(name, options)
    if (typeof r !== 'string') return r
    options.log(`--runtime auto: not ${name} (${r})`)
  }
  return processRuntime
}
