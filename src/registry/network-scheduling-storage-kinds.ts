// networking.k8s.io/v1 NetworkPolicy, storage.k8s.io/v1 StorageClass and scheduling.k8s.io/v1 PriorityClass as rows
// of the kind table, with the discovery data a 1.33 cluster serves for them (short names; storage version hashes:
// the first 8 bytes of sha256("<group>/<version>/<Kind>"), base64). storage.k8s.io comes before scheduling.k8s.io,
// as in kube's group order.
import { NetworkPolicy } from '../schema/network-policy'
import { PriorityClass } from '../schema/priority-class'
import { StorageClass } from '../schema/storage-class'
import type { ResourceDef } from './resource'
import { networkPolicyStrategy } from './strategies/networking/network-policy'
import { priorityClassStrategy } from './strategies/scheduling/priority-class'
import { storageClassStrategy } from './strategies/storage/storage-class'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

type RowSpec = Pick<
  ResourceDef,
  'group' | 'kind' | 'plural' | 'shortNames' | 'namespaced' | 'schema' | 'storageVersionHash'
> & { strategy: unknown }

function row(r: RowSpec): ResourceDef {
  return {
    version: 'v1',
    listKind: `${r.kind}List`,
    singular: r.kind.toLowerCase(),
    categories: [],
    verbs: [...VERBS],
    home: r.namespaced ? 'namespace' : 'cluster',
    returnDeletedObject: false,
    ...r,
    strategy: r.strategy as ResourceDef['strategy'],
  }
}

export function networkSchedulingStorageRows(): ResourceDef[] {
  return [
    row({
      group: 'networking.k8s.io',
      kind: 'NetworkPolicy',
      plural: 'networkpolicies',
      shortNames: ['netpol'],
      namespaced: true,
      schema: NetworkPolicy,
      strategy: networkPolicyStrategy,
      storageVersionHash: 'YpfwF18m1G8=',
    }),
    row({
      group: 'storage.k8s.io',
      kind: 'StorageClass',
      plural: 'storageclasses',
      shortNames: ['sc'],
      namespaced: false,
      schema: StorageClass,
      strategy: storageClassStrategy,
      storageVersionHash: 'K+m6uJwbjGY=',
    }),
    row({
      group: 'scheduling.k8s.io',
      kind: 'PriorityClass',
      plural: 'priorityclasses',
      shortNames: ['pc'],
      namespaced: false,
      schema: PriorityClass,
      strategy: priorityClassStrategy,
      storageVersionHash: '1QwjyaZjj3Y=',
    }),
  ]
}
