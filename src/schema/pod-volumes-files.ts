// Volume sources that write files from API objects and pod fields: Secrets, ConfigMaps and the downward API.
import { z } from 'zod'
import { int32 } from './meta'
import { atomic } from './schema-helpers'
import { ObjectFieldSelector, ResourceFieldSelector } from './pod-common'

export const KeyToPath = z
  .strictObject({
    key: z.string().describe('Key to project'),
    path: z.string().describe('Relative file path the key is written to'),
    mode: int32.optional().describe('Permission bits of the file, as a decimal number'),
  })
  .describe('Maps a key to a file path in a volume')

export const SecretVolumeSource = z
  .strictObject({
    secretName: z.string().optional().describe('Name of the Secret'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
    optional: z.boolean().optional().describe('Whether a missing Secret or key is tolerated'),
  })
  .describe('Files made from the keys of a Secret')

export const DownwardAPIVolumeFile = z
  .strictObject({
    path: z.string().describe('Relative file path to create'),
    fieldRef: ObjectFieldSelector.optional().describe('Pod field written to the file'),
    resourceFieldRef: ResourceFieldSelector.optional().describe('Container resource written to the file'),
    mode: int32.optional().describe('Permission bits of the file'),
  })
  .describe('A file holding a pod field or container resource value')

export const DownwardAPIVolumeSource = z
  .strictObject({
    items: z.array(DownwardAPIVolumeFile).optional().describe('Files to create').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
  })
  .describe('Files exposing information about the pod')

export const ConfigMapVolumeSource = z
  .strictObject({
    name: z.string().optional().describe('Name of the ConfigMap'),
    items: z.array(KeyToPath).optional().describe('Keys to project; all keys when empty').meta(atomic),
    defaultMode: int32.optional().describe('Default permission bits of the files'),
    optional: z.boolean().optional().describe('Whether a missing ConfigMap or key is tolerated'),
  })
  .describe('Files made from the keys of a ConfigMap')
