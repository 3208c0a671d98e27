// The built-in kinds (the rows the kind table starts with) and the table every lookup goes through.
import type { ResourceDef } from './resource'
import { KindTable } from './kind-table'
import { podStrategy } from './strategies/pod/pod-strategy'
import { namespaceStrategy } from './strategies/namespace'
import { Pod } from '../schema/pod'
import { Namespace } from '../schema/namespace'
import { Event } from '../schema/event'
import { Node } from '../schema/node'
import { nodeStrategy } from './strategies/node/node-strategy'
import { eventStrategy } from './strategies/event'

import { Service } from '../schema/service'
import { Endpoints } from '../schema/endpoints'
import { serviceStrategy } from './strategies/service/service-strategy'
import { endpointsStrategy } from './strategies/endpoints'
import { ReplicationController } from '../schema/replication-controller'
import { replicationControllerStrategy } from './strategies/replication-controller'
import { EndpointSlice } from '../schema/endpoint-slice'
import { ServiceAccount } from '../schema/service-account'
import { serviceAccountStrategy } from './strategies/service-account'
import { endpointSliceStrategy } from './strategies/endpoint-slice'
import { rbacResourceRows } from './rbac/rbac-kinds'
import { reviewResourceRows } from './review-kinds'
import { batchResourceRows } from './batch/batch-kinds'
import { crdResourceRows } from './crd/crd-kind'
import { policyResourceRows } from './policy-kinds'
import { appsSetResourceRows } from './apps-set-kinds'
import { appsResourceRows } from './apps-kinds'
import { configStorageResourceRows } from './config-storage-kinds'
import { autoscalingResourceRows } from './autoscaling/hpa-kinds'
import { networkSchedulingStorageRows } from './network-scheduling-storage-kinds'
import { quotaResourceRows } from './quota/quota-kinds'

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const

type RowSpec = Omit<ResourceDef, 'group' | 'version' | 'listKind' | 'shortNames' | 'categories' | 'verbs' | 'home'> &
  Partial<Pick<ResourceDef, 'group' | 'version' | 'listKind' | 'shortNames' | 'categories' | 'verbs' | 'home'>>

/** A row with the core/v1 defaults: every verb, `<Kind>List`, living where its scope says (namespace or cluster). */
const row = (r: RowSpec): ResourceDef => ({
  group: '',
  version: 'v1',
  listKind: `${r.kind}List`,
  shortNames: [],
  categories: [],
  verbs: [...ALL_VERBS],
  home: r.namespaced ? 'namespace' : 'cluster',
  ...r,
})

const BUILT_INS: ResourceDef[] = [
  row({
    kind: 'Namespace',
    plural: 'namespaces',
    singular: 'namespace',
    shortNames: ['ns'],
    namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    schema: Namespace,
    strategy: namespaceStrategy as unknown as ResourceDef['strategy'],
    subresources: [{ name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] }],
    returnDeletedObject: true,
    storageVersionHash: 'Q3oi5N2YM8M=',
  }),
  row({
    kind: 'Pod',
    plural: 'pods',
    singular: 'pod',
    shortNames: ['po'],
    categories: ['all'],
    namespaced: true,
    schema: Pod,
    strategy: podStrategy,
    subresources: [
      { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
      { name: 'binding', kind: 'Binding', verbs: ['create'] },
      { name: 'ephemeralcontainers', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
      { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
      { name: 'proxy', kind: 'PodProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
      { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
    ],
    returnDeletedObject: true,
    storageVersionHash: 'xPOwRZ+Yhw8=',
  }),
  row({
    kind: 'Node',
    plural: 'nodes',
    singular: 'node',
    shortNames: ['no'],
    namespaced: false,
    schema: Node,
    strategy: nodeStrategy as unknown as ResourceDef['strategy'],
    subresources: [{ name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] }],
    returnDeletedObject: false,
    storageVersionHash: 'XwShjMxG9Fs=',
  }),
  row({
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    namespaced: true,
    schema: Event,
    strategy: eventStrategy as unknown as ResourceDef['strategy'],
    returnDeletedObject: false,
    ttlSeconds: 3600,
    storageVersionHash: 'r2yiGXH7wu8=',
  }),
  row({
    kind: 'Service',
    plural: 'services',
    singular: 'service',
    shortNames: ['svc'],
    categories: ['all'],
    namespaced: true,
    schema: Service,
    strategy: serviceStrategy as unknown as ResourceDef['strategy'],
    returnDeletedObject: true,
    storageVersionHash: '0/CO1lhkEBI=',
    subresources: [
      { name: 'proxy', kind: 'ServiceProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
      { name: 'status', kind: 'Service', verbs: ['get', 'patch', 'update'] },
    ],
  }),
  row({
    kind: 'Endpoints',
    plural: 'endpoints',
    singular: 'endpoints',
    shortNames: ['ep'],
    namespaced: true,
    schema: Endpoints,
    strategy: endpointsStrategy as unknown as ResourceDef['strategy'],
    returnDeletedObject: false,
    storageVersionHash: 'fWeeMqaN/OA=',
  }),
  row({
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    singular: 'replicationcontroller',
    shortNames: ['rc'],
    categories: ['all'],
    namespaced: true,
    schema: ReplicationController,
    strategy: replicationControllerStrategy as unknown as ResourceDef['strategy'],
    returnDeletedObject: false,
    storageVersionHash: 'Jond2If31h0=',
    // scale is served by src/api/scale.ts (an autoscaling/v1 view of spec.replicas), status generically.
    subresources: [
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
      { name: 'status', kind: 'ReplicationController', verbs: ['get', 'patch', 'update'] },
    ],
  }),
  row({
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    singular: 'serviceaccount',
    shortNames: ['sa'],
    namespaced: true,
    schema: ServiceAccount,
    strategy: serviceAccountStrategy as unknown as ResourceDef['strategy'],
    returnDeletedObject: true,
    storageVersionHash: 'pbx9ZvyFpBE=',
    // TokenRequest (authentication.k8s.io/v1) is served by src/api/token-request.ts.
    subresources: [
      { name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
    ],
  }),
  // kube's group priority: apps right after the core group (and apiregistration, not served here).
  ...appsResourceRows(),
  ...appsSetResourceRows(),
  ...reviewResourceRows(),
  ...autoscalingResourceRows(),
  ...batchResourceRows(),
  row({
    group: 'discovery.k8s.io',
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    singular: 'endpointslice',
    namespaced: true,
    schema: EndpointSlice,
    strategy: endpointSliceStrategy as unknown as ResourceDef['strategy'],
    returnDeletedObject: false,
    storageVersionHash: 'Nx3SIv6I0mE=',
  }),
  ...policyResourceRows(),
  ...rbacResourceRows(),
  ...crdResourceRows(),
  ...configStorageResourceRows(),
  ...networkSchedulingStorageRows(),
  ...quotaResourceRows(),
]

/** Every kind served, built-in or registered since (src/registry/kind-table.ts). */
export const kinds = new KindTable(BUILT_INS)

export const resourceByPlural = (plural: string): ResourceDef | undefined => kinds.byPlural(plural)
