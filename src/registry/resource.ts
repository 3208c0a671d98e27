// The resource table's row type: everything routes, discovery, OpenAPI and the store need to serve one kind.
import type { z } from 'zod'
import type { Strategy } from './strategy'
import type { KubeObject } from '../schema/meta'

type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch'

/** A subresource a kind serves under its item path (`status`: get, update, patch), as discovery lists it. */
export interface SubresourceDef {
  name: string
  /** The kind its requests and answers carry. */
  kind: string
  group?: string
  version?: string
  verbs: Verb[]
}

export interface ResourceDef<T extends KubeObject = KubeObject> {
  /** API group ('' for core) and version. */
  group: string
  version: string
  kind: string
  listKind: string
  /** Plural resource name used in paths: `pods`. */
  plural: string
  singular: string
  shortNames: string[]
  categories: string[]
  namespaced: boolean
  verbs: Verb[]
  /** The zod schema of the whole object: the single source of its type, decoding and OpenAPI. */
  schema: z.ZodType
  strategy: Strategy<T>
  /**
   * Where the kind's objects live: each namespace's Durable Object, or the cluster one; `none` for kinds that are
   * never stored (the review APIs: a create answers a verdict), served by routes of their own.
   */
  home: 'namespace' | 'cluster' | 'none'
  /** Whether DELETE answers with the object (pods, services) or a Success Status. */
  returnDeletedObject: boolean
  /** A stable hash of the storage version, for discovery. */
  storageVersionHash?: string
  /** Objects of the kind are removed this long after their last write (events: kube's default --event-ttl). */
  ttlSeconds?: number
  /**
   * Objects of the kind are stored encrypted (AES-GCM, src/registry/at-rest.ts) in Durable Object storage and D1, as
   * kube's EncryptionConfiguration encrypts the resources it names (Secrets); their labels stay plain for the index.
   */
  encryptAtRest?: boolean
  /** Subresources the kind serves, for discovery and routing (`status` and `ephemeralcontainers` are generic). */
  subresources?: SubresourceDef[]
}

export const apiVersionOf = (r: Pick<ResourceDef, 'group' | 'version'>) =>
  r.group ? `${r.group}/${r.version}` : r.version
