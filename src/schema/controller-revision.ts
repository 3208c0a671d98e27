// apps/v1 ControllerRevision: an immutable snapshot of a DaemonSet's or StatefulSet's template, which their
// controllers keep as history (kubectl rollout history/undo read it); fields in Go order (k8s.io/api apps/v1).
import { z } from 'zod'
import { ObjectMeta, int64 } from './meta'

export const ControllerRevision = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: ControllerRevision'),
    apiVersion: z.string().optional().describe('Schema version of this object: apps/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    // runtime.RawExtension: any JSON document.
    data: z.unknown().optional().describe('The serialized state: a patch that restores the owner template'),
    revision: int64.describe('The revision number of the state in data'),
  })
  .describe('An immutable snapshot of a controller state, kept as its history')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'ControllerRevision' }] })
export type ControllerRevision = z.infer<typeof ControllerRevision>
