// A container's securityContext as docker/podman `run` flags (pure), as the kubelet's CRI runtimes apply it:
// --user uid[:gid] (runAsGroup alone keeps the image's user), --group-add for fsGroup and supplementalGroups,
// --privileged, --cap-add/--cap-drop by kube's names, --read-only, no-new-privileges for
// allowPrivilegeEscalation=false, seccomp and AppArmor profiles (RuntimeDefault is the engine's default; Localhost
// profiles from <data dir>/seccomp as the kubelet's from <root-dir>/seccomp), SELinux labels, an unmasked /proc, and
// the pod's sysctls.
import { join } from 'node:path'
import type { Obj } from '../obj.ts'
import { type EffectiveSecurity, extraGroups, imageUser } from './security-context.ts'

/** The CLI's flags for the effective security context; `imageUserSpec` is the image's Config.User. */
export function securityArgs(cli: string, sc: EffectiveSecurity, imageUserSpec: string, dataDir: string): string[] {
  const out: string[] = []
  if (sc.runAsUser !== undefined || sc.runAsGroup !== undefined) {
    // runAsGroup alone: the image's user (a name or uid; root when it has none) with that group.
    const image = imageUser(imageUserSpec)
    const user = sc.runAsUser !== undefined ? String(sc.runAsUser) : (image.name ?? String(image.uid ?? 0))
    out.push('--user', sc.runAsGroup !== undefined ? `${user}:${sc.runAsGroup}` : user)
  }
  for (const g of extraGroups(sc)) out.push('--group-add', String(g))
  if (sc.privileged === true) out.push('--privileged')
  for (const c of sc.capabilities?.add ?? []) out.push('--cap-add', String(c))
  for (const c of sc.capabilities?.drop ?? []) out.push('--cap-drop', String(c))
  if (sc.readOnlyRootFilesystem === true) out.push('--read-only')
  if (sc.allowPrivilegeEscalation === false) out.push('--security-opt', 'no-new-privileges')
  const seccomp = sc.seccompProfile
  if (seccomp?.type === 'Unconfined') out.push('--security-opt', 'seccomp=unconfined')
  else if (seccomp?.type === 'Localhost')
    out.push('--security-opt', `seccomp=${join(dataDir, 'seccomp', String(seccomp.localhostProfile ?? ''))}`)
  const apparmor = sc.appArmorProfile
  if (apparmor?.type === 'Unconfined') out.push('--security-opt', 'apparmor=unconfined')
  else if (apparmor?.type === 'Localhost') out.push('--security-opt', `apparmor=${apparmor.localhostProfile ?? ''}`)
  const se = (sc.seLinuxOptions ?? {}) as Obj
  for (const k of ['user', 'role', 'type', 'level'] as const)
    if (se[k]) out.push('--security-opt', `label=${k}:${se[k]}`)
  if (sc.procMount === 'Unmasked')
    out.push('--security-opt', cli === 'podman' ? 'unmask=ALL' : 'systempaths=unconfined')
  for (const s of sc.sysctls) out.push('--sysctl', `${s.name}=${s.value}`)
  return out
}
