// The container runtime: pods' containers run as real images through a docker or podman CLI on the host's network
// (podIP = hostIP, ports reached on loopback as the process runtime's are). Images by imagePullPolicy
// (image-puller.ts); each run attached through cli-run.ts; exec through `exec -i [-t]`; containers of an agent that
// died found by their node label and removed.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { type ContainerProcess, PTY_HELPER } from '../container-process.ts'
import type { Obj } from '../obj.ts'
import { ConfigError } from '../pod-env.ts'
import { type Cli, cliError } from './cli.ts'
import { clientReads, entrypoint, NODE_LABEL, pidMode, runArgs } from './cli-args.ts'
import { CliRun } from './cli-run.ts'
import { killMarked, newMarker } from './exec-marker.ts'
import { securityArgs } from './cli-security.ts'
import { ImagePuller, imageID } from './image-puller.ts'
import type { ContainerRuntime, HostCommand, ImageContext, RunSpec, RuntimeRun } from './runtime.ts'
import { effectiveSecurity, imageUser, verifyRunAsNonRoot } from './security-context.ts'

export interface CliRuntimeOptions {
  node: string
  /** The engine's version (`docker version`). */
  version: string
  /** Image pull back-off: first delay and cap (the kubelet's 10s and 5m). */
  backoffInitialMs: number
  backoffMaxMs: number
  /** The agent's data directory (pulls' client configurations, seccomp profiles); none in tests. */
  dataDir?: string
}

/** The agent's own environment, which the CLI needs (PATH, DOCKER_HOST, XDG_RUNTIME_DIR ...). */
const agentEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>

export class CliRuntime implements ContainerRuntime {
  readonly name: string
  readonly version: string
  readonly podHost = '127.0.0.1'
  readonly images: ImagePuller
  private readonly cli: Cli
  private readonly node: string
  private readonly dataDir: string

  constructor(cli: Cli, options: CliRuntimeOptions) {
    this.cli = cli
    this.name = cli.name
    this.version = `${cli.name}://${options.version}`
    this.node = options.node
    this.dataDir = options.dataDir ?? tmpdir()
    this.images = new ImagePuller(cli, options.backoffInitialMs, options.backoffMaxMs, options.dataDir)
  }

  /** An image brings its own PATH and HOME; the pod's variables are all a container gets from the agent. */
  baseEnv(): Record<string, string> {
    return {}
  }

  /** What the container runs, for the record (the run maps command and args onto the image itself). */
  command(container: Obj, env: Record<string, string>): string[] {
    const agent = agentEnv()
    for (const [name, value] of Object.entries(env))
      if (clientReads(name, agent) && /[\r\n]/.test(value))
        throw new ConfigError(
          `the value of ${name} holds a line break, which ${this.name} cannot take for a variable of that name`,
        )
    const { entrypoint: ep, args } = entrypoint(container, env)
    return ep !== undefined ? [ep, ...args] : args
  }

  ensureImage(container: Obj, ctx: ImageContext) {
    return this.images.ensure(container, ctx)
  }

  /** runAsNonRoot against runAsUser, else the image's configured user (read by inspect), as the kubelet checks it. */
  async verify(pod: Obj, container: Obj): Promise<void> {
    const sc = effectiveSecurity(pod, container)
    if (sc.runAsNonRoot !== true) return
    const image = String(container.image ?? '')
    const info = this.images.known(image) ?? (await this.images.inspect(image))
    verifyRunAsNonRoot(pod, container, sc, imageUser(info?.user ?? ''))
  }

  start(spec: RunSpec): RuntimeRun {
    const cidFile = spec.logFile.replace(/\.log$/, '.cid')
    rmSync(cidFile, { force: true })
    const c = spec.container
    // Variables the CLI reads itself go through a file it reads as it starts (removed once the run started or ended).
    const agent = agentEnv()
    const own: Record<string, string> = {}
    const filed: string[] = []
    for (const [name, value] of Object.entries(spec.env))
      if (clientReads(name, agent)) filed.push(`${name}=${value}`)
      else own[name] = value
    const envFile = spec.logFile.replace(/\.log$/, '.env')
    const pid = pidMode(this.name, spec.pod, spec.targetContainer, spec.targetPid)
    rmSync(envFile, { force: true })
    if (filed.length) writeFileSync(envFile, `${filed.join('\n')}\n`, { mode: 0o600 })
    const run = CliRun.start(this.cli, {
      argv: runArgs({
        node: this.node,
        podUID: spec.podUID,
        podName: spec.podName,
        podNamespace: spec.podNamespace,
        attempt: spec.attempt,
        container: c,
        env: own,
        ...(filed.length ? { envFile } : {}),
        cidFile,
        ...(spec.mounts?.length ? { mounts: spec.mounts } : {}),
        ...(spec.netns ? { netns: spec.netns } : {}),
        ...(pid ? { pid } : {}),
        security: securityArgs(
          this.name,
          effectiveSecurity(spec.pod, c),
          this.images.known(String(c.image ?? ''))?.user ?? '',
          this.dataDir,
        ),
      }),
      env: { ...agent, ...own },
      cwd: spec.dir,
      stdin: c.stdin === true,
      tty: c.tty === true,
      logFile: spec.logFile,
      cidFile,
      imageID: imageID(this.images.known(String(c.image ?? ''))),
    })
    if (filed.length) void run.spawned.then(() => rmSync(envFile, { force: true }))
    return run
  }

  /** A run an earlier agent started: its client adopted from the shim's records, the container known by its cidfile. */
  adopt(client: ContainerProcess, logFile: string): RuntimeRun {
    const run = new CliRun(this.cli, client, logFile.replace(/\.log$/, '.cid'), '')
    // An env file the earlier agent left (it died before the run started): read by the client by now, or once started.
    void run.spawned.then(() => rmSync(logFile.replace(/\.log$/, '.env'), { force: true }))
    return run
  }

  /** A run not adopted: its container, which may still run (its client was lost with its shim), is removed. */
  discard(logFile: string) {
    rmSync(logFile.replace(/\.log$/, '.env'), { force: true })
    let id = ''
    try {
      id = readFileSync(logFile.replace(/\.log$/, '.cid'), 'utf8').trim()
    } catch {
      return
    }
    // A debugger that joined it (--target) ended with its namespace: podman removes it first (--depend), or not at all.
    if (id) void this.cli.run(['rm', '-f', ...this.depend(), id])
  }

  /** podman's removal of the containers that joined the ones removed (docker keeps no such dependency). */
  private depend(): string[] {
    return this.name === 'podman' ? ['--depend'] : []
  }

  exec(run: RuntimeRun, spec: { dir: string }, command: string[], opts: { stdin: boolean; tty: boolean }): HostCommand {
    const id = (run.containerID ?? '').replace(/^[a-z]+:\/\//, '')
    // A variable by which the exec's processes are found and ended (killing the client leaves them running).
    const marker = newMarker()
    const flags = [...(opts.stdin ? ['-i'] : []), ...(opts.tty ? ['-t'] : []), '-e', marker]
    const argv = [this.cli.path, 'exec', ...flags, id, ...command]
    return {
      argv: opts.tty ? ['python3', PTY_HELPER, ...argv] : argv,
      env: agentEnv(),
      cwd: spec.dir,
      end: () => void killMarked(marker),
    }
  }

  async reapLeftovers(keep: (podUID: string) => boolean, log: (msg: string) => void): Promise<void> {
    const r = await this.cli.run(['ps', '-a', '-q', '--filter', `label=${NODE_LABEL}=${this.node}`])
    if (r.code !== 0) return log(`listing containers left by an earlier agent: ${cliError(r)}`)
    const found = r.stdout.split(/\s+/).filter(Boolean)
    if (found.length === 0) return
    const format = `{{.Id}} {{.State.Status}} {{index .Config.Labels "io.kubernetes.pod.uid"}}`
    const inspected = await this.cli.run(['inspect', '--type', 'container', '--format', format, ...found])
    const ids = inspected.stdout
      .split('\n')
      .map((line) => line.trim().split(' '))
      .filter(([id, status, uid]) => id && (status !== 'running' || !keep(uid ?? '')))
      .map(([id]) => id!)
    if (ids.length === 0) return
    // podman refuses to remove a container another joined (`--pid container:<id>`, a debugger's target) before that
    // one, even both named at once: --depend takes them in order (the joined ones ended with the namespace).
    const rm = await this.cli.run(['rm', '-f', ...this.depend(), ...ids])
    if (rm.code !== 0) log(`removing containers left by an earlier agent: ${cliError(rm)}`)
    else log(`removed ${ids.length} container(s) left by an earlier agent: ${ids.join(' ')}`)
  }
}
