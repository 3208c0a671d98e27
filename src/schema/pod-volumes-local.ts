// Volume sources that live on the node: host paths, scratch directories, git clones and images.
import { z } from 'zod'
import { Quantity } from './quantity'
import { HostPathType, PullPolicy } from './pod-common'

export const HostPathVolumeSource = z
  .strictObject({
    path: z.string().describe('Path on the node'),
    type: HostPathType.optional().describe('What must exist at the path'),
  })
  .describe('A file or directory on the node')

export const EmptyDirVolumeSource = z
  .strictObject({
    medium: z.string().optional().describe('Backing medium: empty for node disk, Memory or HugePages'),
    sizeLimit: Quantity.optional().describe('Most storage the directory may use'),
  })
  .describe('A scratch directory that lives as long as the pod')

export const GitRepoVolumeSource = z
  .strictObject({
    repository: z.string().describe('Repository URL'),
    revision: z.string().optional().describe('Commit to check out'),
    directory: z.string().optional().describe('Directory to clone into'),
  })
  .describe('Deprecated: a git repository cloned into an empty directory')

export const ImageVolumeSource = z
  .strictObject({
    reference: z.string().optional().describe('Image or OCI artifact reference'),
    pullPolicy: PullPolicy.optional().describe('When the reference is pulled'),
  })
  .describe('The contents of an image or OCI artifact, mounted read-only')
