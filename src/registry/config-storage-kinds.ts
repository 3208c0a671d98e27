// The configuration and storage kinds as rows of the kind table, with the discovery data a 1.33 cluster serves for
// them (short names, storage version hashes: sha256 of group/version/Kind, as kube computes them): core/v1
// ConfigMaps and Secrets (encrypted at rest), PersistentVolumeClaims and PersistentVolumes; coordination.k8s.io/v1
// Leases; networking.k8s.io/v1 Ingresses and IngressClasses.
import { ConfigMap } from '../schema/config-map'
import { Lease } from '../schema/lease'
import { Secret } from '../schema/secret'
import type { ResourceDef } from './resource'
import { configMapStrategy } from './strategies/config/config-map'
import { secretStrategy } from './strategies/config/secret'
import { leaseStrategy } from './strategies/coordination/lease'

const VERBS: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

type RowSpec = Pick<ResourceDef, 'kind' | 'plural' | 'namespaced' | 'schema' | 'storageVersionHash'> &
  Partial<Pick<ResourceDef, 'group' | 'shortNames' | 'subresources' | 'returnDeletedObject' | 'encryptAtRest'>> & {
    strategy: unknown
  }

function row(r: RowSpec): ResourceDef {
  return {
    group: '',
    version: 'v1',
    listKind: `${r.kind}List`,
    singular: r.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    verbs: [...VERBS],
    home: r.namespaced ? 'namespace' : 'cluster',
    returnDeletedObject: false,
    ...r,
    strategy: r.strategy as ResourceDef['strategy'],
  }
}

/** The rows in kube's discovery order within each group (alphabetical by resource). */
export function configStorageResourceRows(): ResourceDef[] {
  return [
    row({
      kind: 'ConfigMap',
      plural: 'configmaps',
      shortNames: ['cm'],
      namespaced: true,
      schema: ConfigMap,
      strategy: configMapStrategy,
      storageVersionHash: 'qFsyl6wFWjQ=',
    }),
    row({
      kind: 'Secret',
      plural: 'secrets',
      namespaced: true,
      schema: Secret,
      strategy: secretStrategy,
      storageVersionHash: 'S6u1pOWzb84=',
      encryptAtRest: true,
    }),
    row({
      group: 'coordination.k8s.io',
      kind: 'Lease',
      plural: 'leases',
      namespaced: true,
      schema: Lease,
      strategy: leaseStrategy,
      storageVersionHash: 'gqkMMb/YqFM=',
    }),
  ]
}
