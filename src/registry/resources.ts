// The resource table: every kind we serve, from which routes, discovery, OpenAPI and the store are generated.
import type { ResourceDef } from './resource'
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
import { endpointSliceStrategy } from './strategies/endpoint-slice'

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const

export const RESOURCES: ResourceDef[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    listKind: 'NamespaceList',
    plural: 'namespaces',
    singular: 'namespace',
    shortNames: ['ns'],
    categories: [],
    namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    schema: Namespace,
    strategy: namespaceStrategy as unknown as ResourceDef['strategy'],
    subresources: [{ name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] }],
    home: 'cluster',
    returnDeletedObject: true,
    storageVersionHash: 'Q3oi5N2YM8M=',
  },
  {
    group: '',
    version: 'v1',
    kind: 'Pod',
    listKind: 'PodList',
    plural: 'pods',
    singular: 'pod',
    shortNames: ['po'],
    categories: ['all'],
    namespaced: true,
    verbs: [...ALL_VERBS],
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
    home: 'namespace',
    returnDeletedObject: true,
    storageVersionHash: 'xPOwRZ+Yhw8=',
  },
  {
    group: '',
    version: 'v1',
    kind: 'Node',
    listKind: 'NodeList',
    plural: 'nodes',
    singular: 'node',
    shortNames: ['no'],
    categories: [],
    namespaced: false,
    verbs: [...ALL_VERBS],
    schema: Node,
    strategy: nodeStrategy as unknown as ResourceDef['strategy'],
    subresources: [
      { name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] },
    ],
    home: 'cluster',
    returnDeletedObject: false,
    storageVersionHash: 'XwShjMxG9Fs=',
  },
  {
    group: '',
    version: 'v1',
    kind: 'Event',
    listKind: 'EventList',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    categories: [],
    namespaced: true,
    verbs: [...ALL_VERBS],
    schema: Event,
    strategy: eventStrategy as unknown as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    ttlSeconds: 3600,
    storageVersionHash: 'r2yiGXH7wu8=',
  },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    listKind: 'ServiceList',
    plural: 'services',
    singular: 'service',
    shortNames: ['svc'],
    categories: ['all'],
    namespaced: true,
    verbs: [...ALL_VERBS],
    schema: Service,
    strategy: serviceStrategy as unknown as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: true,
    storageVersionHash: '0/CO1lhkEBI=',
    subresources: [{ name: 'status', kind: 'Service', verbs: ['get', 'patch', 'update'] }],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Endpoints',
    listKind: 'EndpointsList',
    plural: 'endpoints',
    singular: 'endpoints',
    shortNames: ['ep'],
    categories: [],
    namespaced: true,
    verbs: [...ALL_VERBS],
    schema: Endpoints,
    strategy: endpointsStrategy as unknown as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    storageVersionHash: 'fWeeMqaN/OA=',
  },
  {
    group: '',
    version: 'v1',
    kind: 'ReplicationController',
    listKind: 'ReplicationControllerList',
    plural: 'replicationcontrollers',
    singular: 'replicationcontroller',
    shortNames: ['rc'],
    categories: ['all'],
    namespaced: true,
    verbs: [...ALL_VERBS],
    schema: ReplicationController,
    strategy: replicationControllerStrategy as unknown as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    storageVersionHash: 'Jond2If31h0=',
    // scale is served by src/api/scale.ts (an autoscaling/v1 view of spec.replicas), status generically.
    subresources: [
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
      { name: 'status', kind: 'ReplicationController', verbs: ['get', 'patch', 'update'] },
    ],
  },
  {
    group: 'discovery.k8s.io',
    version: 'v1',
    kind: 'EndpointSlice',
    listKind: 'EndpointSliceList',
    plural: 'endpointslices',
    singular: 'endpointslice',
    shortNames: [],
    categories: [],
    namespaced: true,
    verbs: [...ALL_VERBS],
    schema: EndpointSlice,
    strategy: endpointSliceStrategy as unknown as ResourceDef['strategy'],
    home: 'namespace',
    returnDeletedObject: false,
    storageVersionHash: 'Nx3SIv6I0mE=',
  },
]

const byPlural = new Map(RESOURCES.map((r) => [r.plural, r]))

export const resourceByPlural = (plural: string): ResourceDef | undefined => byPlural.get(plural)
