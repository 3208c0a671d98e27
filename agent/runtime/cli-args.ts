// The `run` command line of a container, as kube maps a container onto an image (pure): `command` replaces the
// image's ENTRYPOINT (and drops its CMD), `args` replaces its CMD, both expanded with $(VAR) against the container's
// environment; the pod's identity as labels; the host's network, so podIP = hostIP and ports are the host's.
import { expand, quantity } from '../pod-env.ts'
import type { Obj } from '../obj.ts'
import type { Mount } from '../volumes/mount.ts'

/** The labels every container carries (the kubelet's, and the node's, by which leftovers are found). */
export const NODE_LABEL = 'kubeflare.node'

/**
 * Variables the CLI itself, or the loader that starts it, reads from its environment (where its engine, configuration
 * and storage are; what it loads): a container's variable of such a name, or of one the agent's own environment has,
 * cannot travel in the client's environment (DOCKER_HOST would pick the engine, HOME move podman's storage, LD_PRELOAD
 * load code into the client), so it goes through an env file.
 */
const CLIENT_VARS = /^(LD_|DYLD_|DOCKER_|CONTAINERS?_|XDG_|PODMAN|HOME$|PATH$|TMPDIR$)/

export const clientReads = (name: string, agentEnv: Record<string, string>) =>
  Object.hasOwn(agentEnv, name) || CLIENT_VARS.test(name)

/** The container's name in the engine: one per pod, container and run. */
export const containerName = (podUID: string, container: string, attempt: number) =>
  `kubeflare_${podUID}_${container}_${attempt}`

/** The image reference with kube's default tag (applyDefaultImageTag: "busybox" is "busybox:latest"). */
export function withDefaultTag(image: string): string {
  if (image.includes('@')) return image
  const slash = image.lastIndexOf('/')
  return image.lastIndexOf(':') > slash ? image : `${image}:latest`
}

/** The entrypoint override and the arguments after the image, as kube's command/args map onto ENTRYPOINT/CMD. */
export function entrypoint(container: Obj, env: Record<string, string>): { entrypoint?: string; args: string[] } {
  const lookup = (name: string) => env[name]
  const command = ((container.command ?? []) as string[]).map((s) => expand(s, lookup))
  const args = ((container.args ?? []) as string[]).map((s) => expand(s, lookup))
  if (command.length) return { entrypoint: command[0]!, args: [...command.slice(1), ...args] }
  return { args }
}

export interface RunArgs {
  node: string
  podUID: string
  podName: string
  podNamespace: string
  attempt: number
  container: Obj
  /** The container's variables: passed by name, their values from the CLI's own environment (never on argv). */
  env: Record<string, string>
  /** A file (0600) with the container's variables the CLI reads itself (clientReads), as NAME=VALUE lines. */
  envFile?: string
  cidFile: string
  /** The container's volumes, bound with --mount (volumes/pod-volumes.ts). */
  mounts?: Mount[]
  /** The flags of the container's effective securityContext (cli-security.ts). */
  security?: string[]
  /** The pod's named network namespace (--pod-network bridge): podman joins it with `--network ns:<path>`. */
  netns?: string
  /** The run's PID namespace as `--pid` takes it (pidMode); none: its own. */
  pid?: string
}

/**
 * The PID namespace of a run, as kube's runtimes give it: the host's for hostPID pods, its target's for an ephemeral
 * container with a targetContainerName (`container:<id>`, as dockershim did), a shareProcessNamespace pod's: podman
 * (root) joins the pod's holder by path (`ns:/proc/<pid>/ns/pid`: PID 1 there is the holder, as the pause container
 * is kube's, and a container's restart leaves the others running), docker a running container of the pod
 * (`container:<id>`: when that one ends, the kernel ends the namespace, the others with it).
 */
export function pidMode(engine: string, pod: Obj | undefined, targetContainer?: string, targetPid?: number) {
  if ((pod?.spec as Obj | undefined)?.hostPID === true) return 'host'
  if (targetContainer) return `container:${targetContainer}`
  if (targetPid && engine === 'podman') return `ns:/proc/${targetPid}/ns/pid`
  return undefined
}

/** `run` and its flags, then the image and its arguments. */
export function runArgs(a: RunArgs): string[] {
  const c = a.container
  const out = [
    'run',
    '--name',
    containerName(a.podUID, c.name, a.attempt),
    '--cidfile',
    a.cidFile,
    '--pull',
    'never',
    '--network',
    a.netns ? `ns:${a.netns}` : 'host',
    ...(a.pid ? ['--pid', a.pid] : []),
    '--label',
    `${NODE_LABEL}=${a.node}`,
    '--label',
    `io.kubernetes.pod.uid=${a.podUID}`,
    '--label',
    `io.kubernetes.pod.name=${a.podName}`,
    '--label',
    `io.kubernetes.pod.namespace=${a.podNamespace}`,
    '--label',
    `io.kubernetes.container.name=${c.name}`,
    '--label',
    `io.kubernetes.container.restartCount=${a.attempt}`,
  ]
  if (c.stdin === true) out.push('-i')
  if (c.tty === true) out.push('-t')
  if (a.envFile) out.push('--env-file', a.envFile)
  for (const name of Object.keys(a.env)) out.push('-e', name)
  if (c.workingDir) out.push('-w', String(c.workingDir))
  const limits = (c.resources?.limits ?? {}) as Obj
  if (limits.memory !== undefined) out.push('--memory', String(Math.floor(quantity(limits.memory))))
  if (limits.cpu !== undefined) out.push('--cpus', String(quantity(limits.cpu)))
  // The pod's and the container's securityContext (cli-security.ts).
  out.push(...(a.security ?? []))
  for (const m of a.mounts ?? []) out.push('--mount', mountFlag(m))
  const { entrypoint: ep, args } = entrypoint(c, a.env)
  if (ep !== undefined) out.push('--entrypoint', ep)
  out.push(String(c.image), ...args)
  return out
}

/** One bind mount as `--mount` takes it: CSV fields (a field holding a comma or a quote is quoted, as docker reads it). */
function mountFlag(m: Mount): string {
  const field = (f: string) => (/[",]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)
  return [
    'type=bind',
    field(`source=${m.source}`),
    field(`target=${m.target}`),
    ...(m.readOnly ? ['readonly'] : []),
  ].join(',')
}
