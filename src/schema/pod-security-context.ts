// Security contexts: a container's SecurityContext, the pod's PodSecurityContext, and what both embed (capabilities,
// SELinux, Windows, seccomp and AppArmor options; sysctls).
import { z } from 'zod'
import { int64 } from './meta'
import { atomic } from './schema-helpers'
import { AppArmorProfileType, ProcMountType, SeccompProfileType } from './pod-common'

export const Capabilities = z
  .strictObject({
    add: z.array(z.string()).optional().describe('Capabilities to grant').meta(atomic),
    drop: z.array(z.string()).optional().describe('Capabilities to remove').meta(atomic),
  })
  .describe('POSIX capability changes for a container')

export const SELinuxOptions = z
  .strictObject({
    user: z.string().optional().describe('SELinux user label'),
    role: z.string().optional().describe('SELinux role label'),
    type: z.string().optional().describe('SELinux type label'),
    level: z.string().optional().describe('SELinux level label'),
  })
  .describe('SELinux labels applied to a container')

export const WindowsSecurityContextOptions = z
  .strictObject({
    gmsaCredentialSpecName: z.string().optional().describe('Name of the GMSA credential spec to use'),
    gmsaCredentialSpec: z.string().optional().describe('Inline contents of the GMSA credential spec'),
    runAsUserName: z.string().optional().describe('Windows user that runs the entrypoint'),
    hostProcess: z.boolean().optional().describe('Run as a Windows host process container'),
  })
  .describe('Windows-specific security settings')

export const SeccompProfile = z
  .strictObject({
    type: SeccompProfileType.describe('Which kind of profile applies'),
    localhostProfile: z.string().optional().describe('Profile file on the node; only for Localhost'),
  })
  .describe('Seccomp profile selection')

export const AppArmorProfile = z
  .strictObject({
    type: AppArmorProfileType.describe('Which kind of profile applies'),
    localhostProfile: z.string().optional().describe('Profile loaded on the node; only for Localhost'),
  })
  .describe('AppArmor profile selection')

export const SecurityContext = z
  .strictObject({
    capabilities: Capabilities.optional().describe('Capabilities to add or drop'),
    privileged: z.boolean().optional().describe('Run with host root privileges'),
    seLinuxOptions: SELinuxOptions.optional().describe('SELinux labels for the container'),
    windowsOptions: WindowsSecurityContextOptions.optional().describe('Windows-specific settings'),
    runAsUser: int64.optional().describe('UID that runs the entrypoint'),
    runAsGroup: int64.optional().describe('GID that runs the entrypoint'),
    runAsNonRoot: z.boolean().optional().describe('Refuse to start if the process would run as root'),
    readOnlyRootFilesystem: z.boolean().optional().describe('Mount the root filesystem read-only'),
    allowPrivilegeEscalation: z
      .boolean()
      .optional()
      .describe('Allow a process to gain more privileges than its parent'),
    procMount: ProcMountType.optional().describe('How /proc is masked'),
    seccompProfile: SeccompProfile.optional().describe("Seccomp profile, overriding the pod's"),
    appArmorProfile: AppArmorProfile.optional().describe("AppArmor profile, overriding the pod's"),
  })
  .describe('Container-level security settings; they override the pod-level ones')

export const Sysctl = z
  .strictObject({
    name: z.string().describe('Kernel parameter name'),
    value: z.string().describe('Value to set'),
  })
  .describe('A namespaced kernel parameter')

export const PodSecurityContext = z
  .strictObject({
    seLinuxOptions: SELinuxOptions.optional().describe('SELinux labels for all containers'),
    windowsOptions: WindowsSecurityContextOptions.optional().describe('Windows settings for all containers'),
    runAsUser: int64.optional().describe('UID that runs container entrypoints'),
    runAsGroup: int64.optional().describe('GID that runs container entrypoints'),
    runAsNonRoot: z.boolean().optional().describe('Refuse to start containers that would run as root'),
    supplementalGroups: z
      .array(int64)
      .optional()
      .describe('Extra groups for the first process of every container')
      .meta(atomic),
    supplementalGroupsPolicy: z
      .enum(['Merge', 'Strict'])
      .optional()
      .describe('Whether image-defined groups are added to supplementalGroups'),
    fsGroup: int64.optional().describe('Group that owns supported volumes'),
    sysctls: z.array(Sysctl).optional().describe('Namespaced kernel parameters for the pod').meta(atomic),
    fsGroupChangePolicy: z
      .enum(['OnRootMismatch', 'Always'])
      .optional()
      .describe('When volume ownership is changed to fsGroup'),
    seccompProfile: SeccompProfile.optional().describe('Seccomp profile for all containers'),
    appArmorProfile: AppArmorProfile.optional().describe('AppArmor profile for all containers'),
    seLinuxChangePolicy: z
      .enum(['MountOption', 'Recursive'])
      .optional()
      .describe("How volumes get the pod's SELinux label"),
  })
  .describe('Pod-level security settings shared by all containers')
