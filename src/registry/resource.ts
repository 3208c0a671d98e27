// The resource table's row type: everything routes, discovery, OpenAPI and the store need to serve one kind.
import type { z } from 'zod'
import type { Strategy } from './strategy'
import type { KubeObject } from '../schema/meta'
import type { Result } from './status'

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
  /**
   * What hosts, the change log and watches know the kind's objects by, when not its plural: a custom resource's
   * `<plural>.<group>` (plurals may repeat across groups). See resourceKey.
   */
  resource?: string
  /** False for a version served but not stored (a custom resource's other versions): its objects are the stored row's. */
  storage?: boolean
  /**
   * How a version served but not stored converts (autoscaling/v1 HPAs, stored as v2): writes through it are planned
   * with the stored row on the converted object, and what is read through it is converted back. Absent: apiVersion
   * only (conversion None).
   */
  conversion?: VersionConversion
  /** Kinds without a Go type (custom resources): bodies are decoded, pruned and defaulted by this codec instead. */
  unstructured?: UnstructuredCodec
  /** The OpenAPI component the kind publishes instead of one generated from its zod schema (a CRD's schema). */
  openapi?: { name: string; schema: Record<string, unknown> }
  /** Where /scale reads and writes (a CRD's scale subresource); absent: spec.replicas, status.replicas. */
  scale?: ScalePaths
  /** The Warning every request of this version gets (a deprecated custom resource version). */
  warning?: string
  /**
   * DeleteOptions that name no propagation delete as this says (batch/v1 Jobs orphan their pods, for backward
   * compatibility), with a Warning saying so.
   */
  defaultPropagation?: { policy: 'Orphan'; warning: string }
}

/** A served version's conversion to and from the stored version (kube's conversion through its internal version). */
export interface VersionConversion {
  /** A request's object in this version as the stored version's (a failure is the request's 400). */
  toStored(obj: KubeObject): Result<KubeObject>
  /** A stored object as this version serves it. */
  fromStored(obj: KubeObject): KubeObject
}

/** A custom resource's /scale paths, as its CRD declares them (simple JSON paths: `.spec.replicas`). */
export interface ScalePaths {
  specReplicasPath: string
  statusReplicasPath: string
  labelSelectorPath?: string
}

/**
 * How a kind without a Go type decodes a document already read as JSON (kube's unstructured decoding of custom
 * resources, with pruning, defaulting and the metadata coercion of src/registry/custom/).
 */
export interface UnstructuredCodec {
  /** Prunes and defaults `doc` in place; answers unknown-field findings (for fieldValidation) or a 400 message. */
  decode(doc: Record<string, unknown>): { strict: string[] } | { error: string }
  /** The schema declares defaults: what is read (gets, lists, watch events) is defaulted, as kube's decoder does. */
  defaultsOnRead: boolean
}

/** What hosts are asked for when they serve `def` (see ResourceDef.resource). */
export const resourceKey = (def: Pick<ResourceDef, 'plural' | 'resource'>) => def.resource ?? def.plural

export const apiVersionOf = (r: Pick<ResourceDef, 'group' | 'version'>) =>
  r.group ? `${r.group}/${r.version}` : r.version
