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
    storageVersionHash: 'r2yiGXH7wu8=',
  },
]

const byPlural = new Map(RESOURCES.map((r) => [r.plural, r]))

export const resourceByPlural = (plural: string): ResourceDef | undefined => byPlural.get(plural)
