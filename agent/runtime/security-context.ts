// A container's effective securityContext (pure): the pod's fields under the container's own, as kube's
// securitycontext.DetermineEffectiveSecurityContext merges them (the container wins; supplementalGroups, fsGroup,
// sysctls and supplementalGroupsPolicy are the pod's alone), the kubelet's runAsNonRoot check
// (kuberuntime/security_context_others.go verifyRunAsNonRoot) with its exact messages, and Linux's capability numbers
// by kube's names (CAP_ left out).
import type { Obj } from '../obj.ts'
import { ConfigError } from '../pod-env.ts'

/** The fields of PodSecurityContext that a container's SecurityContext overrides. */
const SHARED = [
  'runAsUser',
  'runAsGroup',
  'runAsNonRoot',
  'seLinuxOptions',
  'seccompProfile',
  'appArmorProfile',
] as const

export interface EffectiveSecurity {
  runAsUser?: number
  runAsGroup?: number
  runAsNonRoot?: boolean
  seLinuxOptions?: Obj
  seccompProfile?: Obj
  appArmorProfile?: Obj
  privileged?: boolean
  allowPrivilegeEscalation?: boolean
  readOnlyRootFilesystem?: boolean
  procMount?: string
  capabilities?: { add?: string[]; drop?: string[] }
  /** The pod's: supplementalGroups, fsGroup (added to the groups as kube adds it), sysctls, the groups policy. */
  supplementalGroups: number[]
  fsGroup?: number
  sysctls: { name: string; value: string }[]
  supplementalGroupsPolicy?: string
}

/** The container's effective security context. */
export function effectiveSecurity(pod: Obj | undefined, container: Obj): EffectiveSecurity {
  const p = (pod?.spec?.securityContext ?? {}) as Obj
  const c = (container.securityContext ?? {}) as Obj
  const out: EffectiveSecurity = {
    supplementalGroups: ((p.supplementalGroups ?? []) as unknown[]).map(Number),
    sysctls: ((p.sysctls ?? []) as Obj[]).map((s) => ({ name: String(s.name), value: String(s.value ?? '') })),
  }
  for (const k of SHARED) {
    const v = c[k] ?? p[k]
    if (v !== undefined && v !== null) (out as Obj)[k] = v
  }
  for (const k of ['privileged', 'allowPrivilegeEscalation', 'readOnlyRootFilesystem', 'procMount', 'capabilities'])
    if (c[k] !== undefined && c[k] !== null) (out as Obj)[k] = c[k]
  if (p.fsGroup !== undefined && p.fsGroup !== null) out.fsGroup = Number(p.fsGroup)
  if (p.supplementalGroupsPolicy) out.supplementalGroupsPolicy = String(p.supplementalGroupsPolicy)
  return out
}

/** kube's format.Pod: name_namespace(uid). */
const podDesc = (pod: Obj) => `${pod.metadata?.name}_${pod.metadata?.namespace}(${pod.metadata?.uid})`

/**
 * The image's configured user as containerd reads it (getUserFromImage): a numeric uid, or a user name; none set
 * means root, as the kubelet's getImageUser takes it.
 */
export function imageUser(user: string): { uid?: number; name?: string } {
  const first = user.split(':')[0] ?? ''
  if (first === '') return { uid: 0 }
  return /^\d+$/.test(first) ? { uid: Number(first) } : { name: first }
}

/**
 * verifyRunAsNonRoot: with runAsNonRoot, a runAsUser of 0, or (no runAsUser) a user that is root or cannot be told
 * from a name, is a ConfigError worded as the kubelet's. `runsAs` is the user the container would run as otherwise.
 */
export function verifyRunAsNonRoot(
  pod: Obj,
  container: Obj,
  sc: EffectiveSecurity,
  runsAs: { uid?: number; name?: string },
) {
  if (sc.runAsNonRoot !== true) return
  const where = `(pod: ${JSON.stringify(podDesc(pod))}, container: ${container.name})`
  if (sc.runAsUser !== undefined) {
    if (Number(sc.runAsUser) === 0) throw new ConfigError(`container's runAsUser breaks non-root policy ${where}`)
    return
  }
  if (runsAs.uid === undefined && runsAs.name)
    throw new ConfigError(
      `container has runAsNonRoot and image has non-numeric user (${runsAs.name}), cannot verify user is non-root ${where}`,
    )
  if (runsAs.uid === undefined) return
  if (runsAs.uid === 0) throw new ConfigError(`container has runAsNonRoot and image will run as root ${where}`)
  if (runsAs.uid > 2147483647)
    throw new ConfigError(
      `container has runAsNonRoot and image has an invalid user id (${runsAs.uid}). (Must be 1-(2147483647)): must be between 0 and 2147483647, inclusive ${where}`,
    )
}

/** The groups a container's process gets besides its primary one: fsGroup, then supplementalGroups (no repeats). */
export function extraGroups(sc: EffectiveSecurity): number[] {
  return [...new Set([...(sc.fsGroup !== undefined ? [sc.fsGroup] : []), ...sc.supplementalGroups])]
}

/** Linux capabilities by kube's names (include/uapi/linux/capability.h), CAP_ left out. */
export const CAPABILITIES: Record<string, number> = Object.fromEntries(
  [
    'CHOWN',
    'DAC_OVERRIDE',
    'DAC_READ_SEARCH',
    'FOWNER',
    'FSETID',
    'KILL',
    'SETGID',
    'SETUID',
    'SETPCAP',
    'LINUX_IMMUTABLE',
    'NET_BIND_SERVICE',
    'NET_BROADCAST',
    'NET_ADMIN',
    'NET_RAW',
    'IPC_LOCK',
    'IPC_OWNER',
    'SYS_MODULE',
    'SYS_RAWIO',
    'SYS_CHROOT',
    'SYS_PTRACE',
    'SYS_PACCT',
    'SYS_ADMIN',
    'SYS_BOOT',
    'SYS_NICE',
    'SYS_RESOURCE',
    'SYS_TIME',
    'SYS_TTY_CONFIG',
    'MKNOD',
    'LEASE',
    'AUDIT_WRITE',
    'AUDIT_CONTROL',
    'SETFCAP',
    'MAC_OVERRIDE',
    'MAC_ADMIN',
    'SYSLOG',
    'WAKE_ALARM',
    'BLOCK_SUSPEND',
    'AUDIT_READ',
    'PERFMON',
    'BPF',
    'CHECKPOINT_RESTORE',
  ].map((name, i) => [name, i]),
)

/** A capability's number by kube's name (CAP_ allowed, any case, as runtimes take it); ALL is every one. */
export function capabilityNumbers(names: string[]): number[] | string {
  const out = new Set<number>()
  for (const raw of names) {
    const name = String(raw).toUpperCase().replace(/^CAP_/, '')
    if (name === 'ALL') for (const n of Object.values(CAPABILITIES)) out.add(n)
    else if (CAPABILITIES[name] !== undefined) out.add(CAPABILITIES[name]!)
    else return String(raw)
  }
  return [...out].sort((a, b) => a - b)
}
