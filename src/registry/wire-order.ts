// The wire shape of every body the API writes: which Go type each value is, so the encoder knows its field order.
// Kinds with a zod schema take it from the schema (declared in Go's order); the shapes below have none, and copy
// their field order from apimachinery's meta/v1 types.go, apidiscovery/v2 types.go and autoscaling/v1 (release-1.33).
import type { z } from 'zod'
import { ListMeta, ObjectMeta } from '../schema/meta'
import { Scale } from '../schema/replication-controller'
import { TokenRequest } from '../schema/authentication'
import { kinds as kindTable } from './resources'
import { apiVersionOf } from './resource'

export type Shape =
  /** A type with a zod schema: its declaration order is Go's. */
  | z.ZodType
  /** A Go struct without one: its JSON field names in declaration order, with the shape of those that need one. */
  | { struct: (string | [string, Shape])[] }
  | { array: Shape }
  /** A Go map: keys sorted byte-wise, every value of this shape. */
  | { map: Shape | null }
  /** An embedded runtime.Object (RawExtension): its own apiVersion and kind decide. */
  | 'object'
  /** Anything else: written as it is. */
  | null

const TYPE_META = ['kind', 'apiVersion']

const STATUS: Shape = {
  struct: [
    ...TYPE_META,
    ['metadata', ListMeta],
    'status',
    'message',
    'reason',
    [
      'details',
      {
        struct: [
          'name',
          'group',
          'kind',
          'uid',
          ['causes', { array: { struct: ['reason', 'message', 'field'] } }],
          'retryAfterSeconds',
        ],
      },
    ],
    'code',
  ],
}

const TABLE: Shape = {
  struct: [
    ...TYPE_META,
    ['metadata', ListMeta],
    ['columnDefinitions', { array: { struct: ['name', 'type', 'format', 'description', 'priority'] } }],
    [
      'rows',
      {
        array: {
          struct: [
            'cells',
            ['conditions', { array: { struct: ['type', 'status', 'reason', 'message'] } }],
            ['object', 'object'],
          ],
        },
      },
    ],
  ],
}

const PARTIAL_OBJECT_METADATA: Shape = { struct: [...TYPE_META, ['metadata', ObjectMeta]] }

const GROUP_VERSION: Shape = { struct: ['groupVersion', 'version'] }
const SERVER_ADDRESSES: Shape = { array: { struct: ['clientCIDR', 'serverAddress'] } }
const API_GROUP: Shape = {
  struct: [
    ...TYPE_META,
    'name',
    ['versions', { array: GROUP_VERSION }],
    ['preferredVersion', GROUP_VERSION],
    ['serverAddressByClientCIDRs', SERVER_ADDRESSES],
  ],
}
const API_RESOURCE_LIST: Shape = {
  struct: [
    ...TYPE_META,
    'groupVersion',
    [
      'resources',
      {
        array: {
          struct: [
            'name',
            'singularName',
            'namespaced',
            'group',
            'version',
            'kind',
            'verbs',
            'shortNames',
            'categories',
            'storageVersionHash',
          ],
        },
      },
    ],
  ],
}

const GVK: Shape = { struct: ['group', 'version', 'kind'] }
const API_GROUP_DISCOVERY_LIST: Shape = {
  struct: [
    ...TYPE_META,
    ['metadata', ListMeta],
    [
      'items',
      {
        array: {
          struct: [
            ...TYPE_META,
            ['metadata', ObjectMeta],
            [
              'versions',
              {
                array: {
                  struct: [
                    'version',
                    [
                      'resources',
                      {
                        array: {
                          struct: [
                            'resource',
                            ['responseKind', GVK],
                            'scope',
                            'singularResource',
                            'verbs',
                            'shortNames',
                            'categories',
                            [
                              'subresources',
                              {
                                array: {
                                  struct: [
                                    'subresource',
                                    ['responseKind', GVK],
                                    ['acceptedTypes', { array: GVK }],
                                    'verbs',
                                  ],
                                },
                              },
                            ],
                          ],
                        },
                      },
                    ],
                    'freshness',
                  ],
                },
              },
            ],
          ],
        },
      },
    ],
  ],
}

/** metav1.WatchEvent: the object is whatever kind the watch serves (or a Status for ERROR). */
export const WATCH_EVENT: Shape = { struct: ['type', ['object', 'object']] }

/** A kind's List: TypeMeta, ListMeta, then the items. */
const listOf = (item: Shape): Shape => ({ struct: [...TYPE_META, ['metadata', ListMeta], ['items', { array: item }]] })

let byKind: Map<string, Shape> | null = null
let byKindRevision = -1

/** The shape of a top-level body by its apiVersion and kind; undefined for kinds we do not know (written as they are). */
export function shapeOfKind(apiVersion: unknown, kind: unknown): Shape | undefined {
  // Kinds come and go (CustomResourceDefinitions): rebuild when the table changed.
  if (!byKind || byKindRevision !== kindTable.revision) {
    byKind = kinds()
    byKindRevision = kindTable.revision
  }
  return byKind.get(`${typeof apiVersion === 'string' ? apiVersion : ''}/${typeof kind === 'string' ? kind : ''}`)
}

function kinds(): Map<string, Shape> {
  const m = new Map<string, Shape>()
  const add = (apiVersion: string, kind: string, s: Shape) => m.set(`${apiVersion}/${kind}`, s)
  for (const def of kindTable.all()) {
    add(apiVersionOf(def), def.kind, def.schema)
    add(apiVersionOf(def), def.listKind, listOf(def.schema))
  }
  add('v1', 'Status', STATUS)
  add('autoscaling/v1', 'Scale', Scale)
  add('authentication.k8s.io/v1', 'TokenRequest', TokenRequest)
  for (const v of ['meta.k8s.io/v1', 'meta.k8s.io/v1beta1']) {
    add(v, 'Table', TABLE)
    add(v, 'PartialObjectMetadata', PARTIAL_OBJECT_METADATA)
    add(v, 'PartialObjectMetadataList', listOf(PARTIAL_OBJECT_METADATA))
  }
  // kube-apiserver writes no apiVersion on /api (APIVersions) and /api/v1 (the core APIResourceList).
  add('', 'APIVersions', { struct: [...TYPE_META, 'versions', ['serverAddressByClientCIDRs', SERVER_ADDRESSES]] })
  add('', 'APIResourceList', API_RESOURCE_LIST)
  add('v1', 'APIResourceList', API_RESOURCE_LIST)
  add('v1', 'APIGroupList', { struct: [...TYPE_META, ['groups', { array: API_GROUP }]] })
  add('v1', 'APIGroup', API_GROUP)
  for (const v of ['v2', 'v2beta1']) add(`apidiscovery.k8s.io/${v}`, 'APIGroupDiscoveryList', API_GROUP_DISCOVERY_LIST)
  return m
}
