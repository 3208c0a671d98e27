// The quota kinds as rows of the kind table, with the discovery data a 1.33 cluster serves for them: core/v1
// LimitRanges (limits) and ResourceQuotas (quota, with /status).
import { LimitRange } from '../../schema/limit-range'
import { ResourceQuota } from '../../schema/resource-quota'
import type { ResourceDef } from '../resource'
import { limitRangeStrategy } from '../strategies/quota/limit-range'
import { resourceQuotaStrategy } from '../strategies/quota/resource-quota'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

const core = (r: Pick<ResourceDef, 'kind' | 'plural' | 'shortNames' | 'schema' | 'strategy' | 'storageVersionHash'>) =>
  ({
    group: '',
    version: 'v1',
    listKind: `${r.kind}List`,
    singular: r.kind.toLowerCase(),
    categories: [],
    verbs: [...VERBS],
    namespaced: true,
    home: 'namespace',
    returnDeletedObject: false,
    ...r,
  }) satisfies ResourceDef

/** The rows in kube's discovery order (alphabetical by resource). */
export function quotaResourceRows(): ResourceDef[] {
  return [
    core({
      kind: 'LimitRange',
      plural: 'limitranges',
      shortNames: ['limits'],
      schema: LimitRange,
      strategy: limitRangeStrategy as unknown as ResourceDef['strategy'],
      storageVersionHash: 'EBKMFVe6cwo=',
    }),
    {
      ...core({
        kind: 'ResourceQuota',
        plural: 'resourcequotas',
        shortNames: ['quota'],
        schema: ResourceQuota,
        strategy: resourceQuotaStrategy as unknown as ResourceDef['strategy'],
        storageVersionHash: '8uhSgffRX6w=',
      }),
      // kube's resourcequota storage answers a DELETE with the object; limitranges' with a Status.
      returnDeletedObject: true,
      subresources: [{ name: 'status', kind: 'ResourceQuota', verbs: ['get', 'patch', 'update'] }],
    },
  ]
}
