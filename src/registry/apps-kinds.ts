// The apps/v1 kinds as rows of the kind table, with the discovery data a 1.33 cluster serves for them (short names, the
// `all` category, storage version hashes from its discovery), /status served generically and /scale by
// src/api/scale.ts. Other apps kinds add their rows here.
import { Deployment } from '../schema/deployment'
import { ReplicaSet } from '../schema/replica-set'
import type { ResourceDef } from './resource'
import { deploymentStrategy } from './strategies/apps/deployment'
import { replicaSetStrategy } from './strategies/apps/replica-set'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

/** A namespaced apps/v1 workload row serving /scale and /status. */
function workloadRow(
  kind: string,
  plural: string,
  shortName: string,
  schema: ResourceDef['schema'],
  strategy: unknown,
  storageVersionHash: string,
): ResourceDef {
  return {
    group: 'apps',
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    shortNames: [shortName],
    categories: ['all'],
    namespaced: true,
    verbs: [...VERBS],
    schema,
    strategy: strategy as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    storageVersionHash,
    subresources: [
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
      { name: 'status', kind, verbs: ['get', 'patch', 'update'] },
    ],
  }
}

/** Deployments and ReplicaSets, in kube's discovery order (alphabetical by resource). */
export function appsResourceRows(): ResourceDef[] {
  return [
    workloadRow('Deployment', 'deployments', 'deploy', Deployment, deploymentStrategy, '8aSe+NMegvE='),
    workloadRow('ReplicaSet', 'replicasets', 'rs', ReplicaSet, replicaSetStrategy, 'P1RzHs8/mWQ='),
  ]
}
