// securityContext under the process runtime, field by field (a container is a host process: no image, no namespaces
// of its own). Applied by the shim in the container's process just before exec: runAsUser, runAsGroup (else the
// user's group from the host's /etc/passwd, else 0, as containerd takes it from the image's), fsGroup and
// supplementalGroups (with the user's /etc/group memberships unless supplementalGroupsPolicy is Strict),
// capabilities.drop (out of the bounding set, so not even a root process or a setuid program has them),
// allowPrivilegeEscalation=false (no_new_privs). Checked: runAsNonRoot against the uid the process will run as.
// Refused with a CreateContainerConfigError rather than ignored, since each would leave the process less isolated
// than asked: readOnlyRootFilesystem, seccomp and AppArmor profiles other than Unconfined, SELinux options, sysctls
// (they would change the node's own), privileged under an agent that is not root, and any other user or group when
// the agent is not root. privileged (under a root agent) and procMount are what a host process has anyway;
// capabilities.add stays in the bounding set (a root process has it; one that is not root holds none, as under
// containerd, where only a file-capability program can use it).
import { readFileSync } from 'node:fs'
import type { Obj } from '../obj.ts'
import { ConfigError } from '../pod-env.ts'
import { capabilityNumbers, effectiveSecurity, extraGroups, verifyRunAsNonRoot } from './security-context.ts'

/** What the shim applies to a container's process (shim.py's become). */
export interface ProcessSecurity {
  uid?: number
  gid?: number
  groups?: number[]
  /** Capabilities (numbers) taken out of the bounding set. */
  dropCaps?: number[]
  noNewPrivs?: boolean
}

/** The agent's own identity (the process runtime's default user). */
export interface AgentIdentity {
  uid: number
  gid: number
}

const self = (): AgentIdentity => ({ uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 })

/** A colon-separated database (/etc/passwd, /etc/group) as lines of fields; none where it cannot be read. */
function table(path: string): string[][] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(':'))
  } catch {
    return []
  }
}

/** The host's account for a uid: its name and primary group. */
function account(uid: number): { name: string; gid: number } | null {
  const row = table('/etc/passwd').find((f) => Number(f[2]) === uid && f[2] !== '')
  return row ? { name: row[0]!, gid: Number(row[3]) } : null
}

const CANNOT = 'the process runtime cannot honour'

/**
 * What the shim applies to the container's process, or a ConfigError (CreateContainerConfigError) for what a host
 * process cannot honour or that breaks runAsNonRoot.
 */
export function processSecurity(pod: Obj, container: Obj, agent: AgentIdentity = self()): ProcessSecurity | undefined {
  const sc = effectiveSecurity(pod, container)
  const refuse = (field: string, why: string) => {
    throw new ConfigError(`${CANNOT} securityContext.${field}: ${why}`)
  }
  if (sc.readOnlyRootFilesystem === true)
    refuse('readOnlyRootFilesystem', 'a host process shares the node’s filesystem, which it cannot make read-only')
  const seccomp = sc.seccompProfile?.type
  if (seccomp && seccomp !== 'Unconfined')
    refuse(`seccompProfile (${seccomp})`, 'a host process gets no seccomp filter; only Unconfined can be run')
  const apparmor = sc.appArmorProfile?.type
  if (apparmor && apparmor !== 'Unconfined')
    refuse(`appArmorProfile (${apparmor})`, 'a host process gets no AppArmor profile; only Unconfined can be run')
  if (sc.seLinuxOptions && Object.values(sc.seLinuxOptions).some((v) => v))
    refuse('seLinuxOptions', 'a host process gets no SELinux label of its own')
  if (sc.sysctls.length)
    refuse(
      `sysctls (${sc.sysctls.map((s) => s.name).join(', ')})`,
      'a host process shares the node’s kernel namespaces, so they would change the node’s own',
    )
  const uid = sc.runAsUser !== undefined ? Number(sc.runAsUser) : agent.uid
  verifyRunAsNonRoot(pod, container, sc, { uid })
  const root = agent.uid === 0
  if (sc.privileged === true && !root)
    refuse('privileged', `the node agent does not run as root (uid ${agent.uid}), so its processes are not privileged`)
  const add = sc.capabilities?.add ?? []
  const drop = sc.capabilities?.drop ?? []
  for (const [field, names] of [
    ['add', add],
    ['drop', drop],
  ] as const) {
    const known = capabilityNumbers([...names])
    if (typeof known === 'string') refuse(`capabilities.${field}`, `${known} is not a Linux capability`)
  }

  const out: ProcessSecurity = {}
  const host = sc.runAsUser !== undefined ? account(uid) : null
  const gid =
    sc.runAsGroup !== undefined ? Number(sc.runAsGroup) : sc.runAsUser !== undefined ? (host?.gid ?? 0) : undefined
  let groups = extraGroups(sc)
  if (sc.runAsUser !== undefined && sc.supplementalGroupsPolicy !== 'Strict' && host) {
    // supplementalGroupsPolicy Merge (the default): the user's memberships in the host's /etc/group, as in an image's.
    const member = table('/etc/group').filter((f) => (f[3] ?? '').split(',').includes(host.name))
    groups = [...new Set([...member.map((f) => Number(f[2])), ...groups])]
  }
  if (!root) {
    // Not root: the agent can only run processes as itself.
    if (uid !== agent.uid || (gid !== undefined && gid !== agent.gid) || groups.length)
      throw new ConfigError(
        `${CANNOT} securityContext: the node agent does not run as root (uid ${agent.uid}), so its containers run as uid ${agent.uid} and gid ${agent.gid} only, with no other groups`,
      )
  } else if (sc.runAsUser !== undefined || sc.runAsGroup !== undefined || groups.length) {
    out.uid = uid
    out.gid = gid ?? agent.gid
    out.groups = groups
  }
  // drop ALL, add X: all but X (a root process keeps what is added; a non-root one holds none anyway).
  const dropped = capabilityNumbers([...drop]) as number[]
  const kept = new Set(capabilityNumbers([...add]) as number[])
  const dropCaps = dropped.filter((n) => !kept.has(n))
  if (dropCaps.length) {
    // The bounding set needs CAP_SETPCAP; an agent that is not root runs processes with no capabilities, which
    // no_new_privs keeps from gaining any through a setuid or file-capability program.
    if (root) out.dropCaps = dropCaps
    else out.noNewPrivs = true
  }
  if (sc.allowPrivilegeEscalation === false) out.noNewPrivs = true
  return Object.keys(out).length ? out : undefined
}

/** What /proc/<pid>/status says of a process's identity and privileges (null: no such process, or no /proc). */
function statusOf(pid: number | 'self') {
  let status: string
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return null
  }
  const field = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'm').exec(status)?.[1]?.trim() ?? ''
  return {
    uid: Number(field('Uid').split(/\s+/)[1]),
    gid: Number(field('Gid').split(/\s+/)[1]),
    groups: field('Groups').split(/\s+/).filter(Boolean).map(Number),
    bounding: BigInt(`0x${field('CapBnd') || '0'}`),
    noNewPrivs: field('NoNewPrivs') === '1',
  }
}

/**
 * How a running process differs from the agent in uid, groups and privileges (/proc/<pid>/status): what exec into it
 * runs with (undefined: as the agent itself).
 */
export function securityOfProcess(pid: number | undefined): ProcessSecurity | undefined {
  const it = pid ? statusOf(pid) : null
  const me = statusOf('self')
  if (!it || !me) return undefined
  const out: ProcessSecurity = {}
  if (it.uid !== me.uid || it.gid !== me.gid || it.groups.join(',') !== me.groups.join(','))
    Object.assign(out, { uid: it.uid, gid: it.gid, groups: it.groups })
  const dropCaps: number[] = []
  for (let n = 0; n < 64; n++)
    if (me.bounding & (1n << BigInt(n)) && !(it.bounding & (1n << BigInt(n)))) dropCaps.push(n)
  if (dropCaps.length) out.dropCaps = dropCaps
  if (it.noNewPrivs && !me.noNewPrivs) out.noNewPrivs = true
  return Object.keys(out).length ? out : undefined
}
