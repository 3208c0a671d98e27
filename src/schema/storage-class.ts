// storage.k8s.io/v1 StorageClass: a class of storage claims name (spec.storageClassName) and the provisioner that
// would make their volumes; one may be the default (annotation storageclass.kubernetes.io/is-default-class), which
// the DefaultStorageClass admission plugin gives claims that name none. No provisioner runs here.
import { z } from 'zod'
import { ObjectMeta, StringMap } from './meta'
import { atomic } from './schema-helpers'
import { TopologySelectorTerm } from './topology-selector'

export const StorageClass = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: StorageClass'),
    apiVersion: z.string().optional().describe('Schema version of this object: storage.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    provisioner: z.string().describe('The provisioner that makes volumes of this class'),
    parameters: StringMap.optional().describe('Parameters for the provisioner'),
    reclaimPolicy: z
      .string()
      .optional()
      .describe('Delete (the default) or Retain, for volumes provisioned for this class')
      .meta({ default: 'Delete' }),
    mountOptions: z.array(z.string()).optional().describe('Mount options of provisioned volumes').meta(atomic),
    allowVolumeExpansion: z.boolean().optional().describe('Whether claims of this class may grow'),
    volumeBindingMode: z
      .string()
      .optional()
      .describe('Immediate (the default) or WaitForFirstConsumer')
      .meta({ default: 'Immediate' }),
    allowedTopologies: z
      .array(TopologySelectorTerm)
      .optional()
      .describe('Where volumes may be provisioned; anywhere when empty')
      .meta(atomic),
  })
  .describe('A class of storage volumes can be provisioned in')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass' }] })

export type StorageClass = z.infer<typeof StorageClass>
