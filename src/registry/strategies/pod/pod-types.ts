// The pod object shape the pod strategy works on: the zod-inferred Pod with metadata made present, and names for the
// embedded types the validation and defaulting code walks.
import type { z } from 'zod'
import type { ObjectMeta } from '../../../schema/meta'
import type * as schema from '../../../schema/pod'

export type PodSpec = schema.PodSpec
export type PodStatus = schema.PodStatus

/**
 * A decoded, null-stripped Pod as the strategy sees it. metadata is always present (the store creates it) and so is
 * spec once applyDefaults has run: every hook after defaulting, and every stored pod, has one. applyDefaults itself is
 * the only code that may meet a body without spec.
 */
export type PodObject = Omit<schema.Pod, 'metadata' | 'spec'> & { metadata: ObjectMeta; spec: PodSpec }

export type Container = schema.Container
export type EphemeralContainer = schema.EphemeralContainer
/** The fields regular, init and ephemeral containers share (EphemeralContainerCommon). */
export type AnyContainer = Container | EphemeralContainer
export type Volume = schema.Volume
export type Toleration = schema.Toleration
export type ResourceRequirements = schema.ResourceRequirements
export type ResourceList = z.infer<typeof schema.ResourceList>
export type ContainerPort = z.infer<typeof schema.ContainerPort>
export type EnvVar = z.infer<typeof schema.EnvVar>
export type EnvFromSource = z.infer<typeof schema.EnvFromSource>
export type VolumeMount = z.infer<typeof schema.VolumeMount>
export type VolumeDevice = z.infer<typeof schema.VolumeDevice>
export type Probe = z.infer<typeof schema.Probe>
export type Lifecycle = z.infer<typeof schema.Lifecycle>
export type LifecycleHandler = z.infer<typeof schema.LifecycleHandler>
export type HTTPGetAction = z.infer<typeof schema.HTTPGetAction>
export type SecurityContext = z.infer<typeof schema.SecurityContext>
export type PodSecurityContext = z.infer<typeof schema.PodSecurityContext>
export type SeccompProfile = z.infer<typeof schema.SeccompProfile>
export type AppArmorProfile = z.infer<typeof schema.AppArmorProfile>
export type WindowsSecurityContextOptions = z.infer<typeof schema.WindowsSecurityContextOptions>
export type ObjectFieldSelector = z.infer<typeof schema.ObjectFieldSelector>
export type ResourceFieldSelector = z.infer<typeof schema.ResourceFieldSelector>
export type KeyToPath = z.infer<typeof schema.KeyToPath>
export type DownwardAPIVolumeFile = z.infer<typeof schema.DownwardAPIVolumeFile>
export type ProjectedVolumeSource = z.infer<typeof schema.ProjectedVolumeSource>
export type PersistentVolumeClaimSpec = z.infer<typeof schema.PersistentVolumeClaimSpec>
export type LabelSelector = z.infer<typeof schema.LabelSelector>
export type NodeSelector = z.infer<typeof schema.NodeSelector>
export type NodeSelectorTerm = z.infer<typeof schema.NodeSelectorTerm>
export type NodeSelectorRequirement = z.infer<typeof schema.NodeSelectorRequirement>
export type NodeAffinity = z.infer<typeof schema.NodeAffinity>
export type PodAffinityTerm = z.infer<typeof schema.PodAffinityTerm>
export type WeightedPodAffinityTerm = z.infer<typeof schema.WeightedPodAffinityTerm>
export type Affinity = z.infer<typeof schema.Affinity>
export type TopologySpreadConstraint = z.infer<typeof schema.TopologySpreadConstraint>
export type PodDNSConfig = z.infer<typeof schema.PodDNSConfig>
export type ContainerStatus = schema.ContainerStatus
export type PodCondition = schema.PodCondition
export type PodQOSClass = z.infer<typeof schema.PodQOSClass>
