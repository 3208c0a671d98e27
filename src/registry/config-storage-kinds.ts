// The configuration and storage kinds as rows of the kind table, with the discovery data a 1.33 cluster serves for
// them (short names, storage version hashes: sha256 of group/version/Kind, as kube computes them): core/v1
// ConfigMaps and Secrets (encrypted at rest), PersistentVolumeClaims and PersistentVolumes; coordination.k8s.io/v1
// Leases; networking.k8s.io/v1 Ingresses and IngressClasses.
import { ConfigMap } from '../schema/config-map'
import { Ingress, IngressClass } from '../schema/ingress'
import { Lease } from '../schema/lease'
import { PersistentVolume } from '../schema/persistent-volume'
import { PersistentVolumeClaim } from '../schema/persistent-volume-claim'
import { Secret } from '../schema/secret'
import type { ResourceDef } from './resource'
import { configMapStrategy } from './strategies/config/config-map'
import { secretStrategy } from './strategies/config/secret'
import { leaseStrategy } from './strategies/coordination/lease'
import { ingressStrategy } from './strategies/networking/ingress'
import { ingressClassStrategy } from './strategies/networking/ingress-class'
import { persistentVolumeStrategy } from './strategies/storage/persistent-volume'
import { persistentVolumeClaimStrategy } from './strategies/storage/persistent-volume-claim'

const STATUS = (kind: string) => [{ name: 'status', kind, verbs: ['get', 'patch', 'update'] as ResourceDef['verbs'] }]

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
      kind: 'PersistentVolumeClaim',
      plural: 'persistentvolumeclaims',
      shortNames: ['pvc'],
      namespaced: true,
      schema: PersistentVolumeClaim,
      strategy: persistentVolumeClaimStrategy,
      storageVersionHash: 'QWTyNDq0dC4=',
      returnDeletedObject: true,
      subresources: STATUS('PersistentVolumeClaim'),
    }),
    row({
      kind: 'PersistentVolume',
      plural: 'persistentvolumes',
      shortNames: ['pv'],
      namespaced: false,
      schema: PersistentVolume,
      strategy: persistentVolumeStrategy,
      storageVersionHash: 'HN/zwEC+JgM=',
      returnDeletedObject: true,
      subresources: STATUS('PersistentVolume'),
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
    row({
      group: 'networking.k8s.io',
      kind: 'IngressClass',
      plural: 'ingressclasses',
      namespaced: false,
      schema: IngressClass,
      strategy: ingressClassStrategy,
      storageVersionHash: 'l/iqIbDgFyQ=',
    }),
    row({
      group: 'networking.k8s.io',
      kind: 'Ingress',
      plural: 'ingresses',
      shortNames: ['ing'],
      namespaced: true,
      schema: Ingress,
      strategy: ingressStrategy,
      storageVersionHash: '39NQlfNR+bo=',
      subresources: STATUS('Ingress'),
    }),
  ]
}
