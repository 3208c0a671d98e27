// The argument and answer types of the hosts' RPC verbs (StoreHost), as the Worker's handlers see them.
import type { ListMode } from '../registry/list'
import type { KubeObject } from '../schema/meta'
import type { FieldValidation } from '../registry/decode'

/** A list request as it crosses RPC: selectors travel as strings. */
export interface ListQuery {
  mode: ListMode
  limit?: number
  labelSelector?: string
  fieldSelector?: string
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
}

export type { PatchType } from '../registry/patch/apply-patch'

export interface PatchOptions extends WriteOptions {
  fieldValidation: FieldValidation
  /** Server-side apply only: take ownership of conflicting fields. */
  force?: boolean
}

/** Answers of the write verbs: the object and whether it was created (201) or not (200). */
export interface WriteAnswer {
  object: KubeObject
  created?: boolean
  /** fieldValidation=Warn findings made inside the host (patch results), for Warning headers. */
  warnings?: string[]
}
