// The argument and answer types of the hosts' RPC verbs (src/host/object-host.ts), as the Worker's handlers see them.
import type { ListMode } from '../registry/list'
import type { Selectors } from '../registry/selectors'
import type { KubeObject } from '../schema/meta'
import type { FieldValidation } from '../registry/decode'
import type { UserInfo } from '../registry/user-info'
import type { RequestingNode } from '../registry/admission/node-restriction'

/** A list request as it crosses RPC: selectors travel parsed (src/registry/selectors.ts). */
export interface ListQuery {
  mode: ListMode
  limit?: number
  selectors?: Selectors
  /** resourceVersion with NotOlderThan semantics: the list must reflect at least this. */
  minRv?: number
}

export interface WriteOptions {
  dryRun?: boolean
  /** The manager recorded in managedFields (the fieldManager parameter, or derived from the User-Agent). */
  fieldManager?: string
  /** Writes through a subresource (`status`) plan with that subresource's strategy (src/registry/status-subresource.ts). */
  subresource?: string
  /** Creates only: the Idempotency-Key header, a creation token (see README). */
  idempotencyKey?: string
  /**
   * Updates only: the body is a v1beta1 object, converted onto the newest stored object when the write is planned
   * (src/registry/v1beta1/replace.ts).
   */
  codec?: 'v1beta1'
  /** Who asks, for kinds whose strategy judges the writer (RBAC's escalation prevention); absent: the server's own. */
  requester?: Requester
  /** The node a node's own identity writes as, for NodeRestriction (src/registry/admission/node-restriction.ts). */
  node?: RequestingNode
  /**
   * The version a custom resource is written in when it is not the stored one: that version's row (its schema,
   * defaults and rules) plans the write; the object is stored in the storage version.
   */
  version?: string
  /**
   * The caller writes the answer's object unchanged as its body: the host sends it as JSON text in Go's field order
   * (WriteAnswer.json; src/host/rpc-json.ts).
   */
  encodeAnswer?: boolean
}

/** The cluster's RBAC objects, as the Worker's RBAC cache holds them. */
export interface ClusterRbac {
  clusterRoles: KubeObject[]
  clusterRoleBindings: KubeObject[]
}

/** A write's requester: the user and, for a namespace's host, the cluster's RBAC objects to resolve its rules with. */
export interface Requester {
  user: UserInfo
  cluster?: ClusterRbac
}

export type { PatchType } from '../registry/patch/apply-patch'

export interface PatchOptions extends WriteOptions {
  fieldValidation: FieldValidation
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean
}

/** Answers of the write verbs: the object and whether it was created (201) or not (200). */
export interface WriteAnswer {
  /** The object; only its identity (kind, apiVersion, name, namespace, uid, resourceVersion) when `json` is set. */
  object: KubeObject
  /** With WriteOptions.encodeAnswer: the whole object as JSON text in Go's field order, not yet escaped as Go escapes. */
  json?: string
  created?: boolean
  /** fieldValidation=Warn findings made inside the host (patch results), for Warning headers. */
  warnings?: string[]
  /** A controller's mutation chose to change nothing (src/host/controller.ts). */
  declined?: boolean
  /** The write changed nothing: no commit, the object keeps its resourceVersion. */
  unchanged?: boolean
  /** A delete that left the object in place (finalizers, a grace period): kube answers the object, not a Status. */
  pending?: boolean
}

/** Every object of some resources and the version they are at (ObjectHost.snapshot); objects null: unchanged. */
export interface Snapshot {
  version: number
  objects: Record<string, KubeObject[]> | null
}
