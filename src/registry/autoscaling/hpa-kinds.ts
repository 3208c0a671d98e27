// HorizontalPodAutoscalers as rows of the kind table, with the discovery data a 1.33 cluster serves for them: group
// autoscaling, v2 first (the preferred and stored version) then v1 (converted, hpa-conversion.ts), short name hpa,
// the `all` category, the status subresource, one storage version hash (autoscaling/v2's) for both.
import { HorizontalPodAutoscaler as HpaV1 } from '../../schema/autoscaling-v1'
import { HorizontalPodAutoscaler as HpaV2 } from '../../schema/autoscaling-v2'
import type { KubeObject } from '../../schema/meta'
import type { ResourceDef } from '../resource'
import { hpaStrategy } from '../strategies/autoscaling/hpa-strategy'
import type { Strategy } from '../strategy'
import { hpaFromV1, hpaToV1 } from './hpa-conversion'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

function row(version: string, schema: ResourceDef['schema'], extra: Partial<ResourceDef> = {}): ResourceDef {
  return {
    group: 'autoscaling',
    version,
    kind: 'HorizontalPodAutoscaler',
    listKind: 'HorizontalPodAutoscalerList',
    plural: 'horizontalpodautoscalers',
    singular: 'horizontalpodautoscaler',
    shortNames: ['hpa'],
    categories: ['all'],
    namespaced: true,
    verbs: [...VERBS],
    schema,
    strategy: hpaStrategy as unknown as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    storageVersionHash: 'qwQve8ut294=',
    subresources: [{ name: 'status', kind: 'HorizontalPodAutoscaler', verbs: ['get', 'patch', 'update'] }],
    ...extra,
  }
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v1), for what reads a v1 object as decoded (the audit's copy). */
function defaultV1(obj: KubeObject) {
  const spec = obj.spec as { minReplicas?: number } | undefined
  if (spec) spec.minReplicas ??= 1
}

/** autoscaling/v2 (stored) then autoscaling/v1, in kube's version priority. */
export function autoscalingResourceRows(): ResourceDef[] {
  return [
    row('v2', HpaV2),
    row('v1', HpaV1, {
      storage: false,
      // Writes through v1 plan with the v2 row once converted, and Tables print the stored object (kube prints its
      // internal version): this strategy only defaults v1 objects as decoded.
      strategy: { ...(hpaStrategy as unknown as Strategy), applyDefaults: defaultV1 },
      conversion: { toStored: hpaFromV1, fromStored: (obj: KubeObject) => hpaToV1(obj) },
    }),
  ]
}
