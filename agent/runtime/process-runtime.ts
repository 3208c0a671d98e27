// The process runtime: a container is a host process group in its own directory (container-process.ts), its command
// the container's command + args (or --image-default's), exec a process beside it with its environment; images are
// neither pulled nor isolated. A container with volumes runs in a mount namespace of its own with each volume bind-mounted
// at its mountPath (shim.py), and exec enters that namespace (volumes/mount-namespace.ts). Where the host allows it, each
// container has a PID namespace of its own (pid-namespace.ts), so nothing it starts outlives it; exec enters it too.
import { ContainerProcess, PTY_HELPER, SHIM } from '../container-process.ts'
import { hostPython } from '../host-tools.ts'
import { containerCommand } from '../pod-env.ts'
import { netnsPrefix } from '../network/netns-enter.ts'
import { checkCommandIn } from './container-path.ts'
import { enterPrefix } from '../volumes/mount-namespace.ts'
import { pidNamespaceOf } from './pid-namespace.ts'
import { processSecurity, securityOfProcess } from './process-security.ts'
import type { ContainerRuntime } from './runtime.ts'

export const processRuntime: ContainerRuntime = {
  name: 'process',
  version: 'process://1.0.0',
  podHost: '127.0.0.1',
  baseEnv: (cwd, podName) => ({
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: cwd,
    HOSTNAME: podName,
  }),
  command: containerCommand,
  ensureImage: async () => null,
  // What a host process cannot honour of its securityContext is refused (process-security.ts).
  verify: async (pod, container) => void processSecurity(pod, container),
  start: (spec) =>
    ContainerProcess.start({
      command: spec.command,
      env: spec.env,
      cwd: spec.cwd,
      stdin: spec.container.stdin === true,
      tty: spec.container.tty === true,
      logFile: spec.logFile,
      ...(spec.mounts?.length ? { mounts: spec.mounts } : {}),
      ...(spec.netns ? { netns: spec.netns } : {}),
      security: spec.pod ? processSecurity(spec.pod, spec.container) : undefined,
      ...pidNamespaceOf(spec),
    }),
  exec: (run, spec, command, { tty }) => {
    const container = run as ContainerProcess
    // The CRI execs into a running container only. Here the command would otherwise run on the host, outside the
    // container's mount namespace and as the agent: while the shim starts the run (its pid not known yet), and once
    // its process has ended until the shim records the exit (up to 2 s later), the container counts as running.
    if (container.pid === undefined) throw new Error('container is in CONTAINER_CREATED state')
    if (!container.alive) throw new Error('container is in CONTAINER_EXITED state')
    const pid = container.pid
    // As the container's process runs: its user, groups, bounding set and no_new_privs (shim.py --become).
    const who = securityOfProcess(pid)
    const become = who ? [hostPython(), '-I', '-S', SHIM, '--become', JSON.stringify(who)] : []
    const prefix = [...netnsPrefix(pid), ...enterPrefix(pid, spec.cwd)]
    // Behind nsenter a missing command is nsenter's exit 127: looked up first, it is the CRI's error.
    if (pid && prefix.length) checkCommandIn(pid, command, spec.env, spec.cwd)
    const inside = [...prefix, ...become, ...command]
    return {
      argv: tty ? [hostPython(), PTY_HELPER, ...inside] : inside,
      env: { ...spec.env, ...(tty ? { TERM: spec.env.TERM ?? 'xterm' } : {}) },
      cwd: spec.cwd,
    }
  },
  // Left processes are found by their own records (pod-manager.ts).
  reapLeftovers: async () => undefined,
}
