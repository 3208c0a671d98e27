// The per-kind strategy: the only code a resource author writes, as in kube-apiserver's registry.
import type { FieldError } from './field-errors'
import type { KubeObject } from '../schema/meta'
import type { DeleteOptions } from '../schema/meta'
import type { Status } from './status'
import type { EscalationContext } from './rbac/escalation'
import type { RbacSource } from './rbac/rule-resolver'
import type { RequestingNode } from './admission/node-restriction'

/** What a strategy hook may know about the request besides the objects. */
export interface StrategyContext {
  /** The request's time: every timestamp a write sets comes from here, so a write is deterministic under test. */
  now: Date
  namespace: string
  /**
   * Who asks for the write, for kinds whose writes depend on the writer (RBAC's escalation prevention). Absent for
   * the server's own writes (controllers, bootstrap), which kube's loopback client makes as system:masters.
   */
  writer?: Writer
  /** The node a write comes from (a node's own identity), for NodeRestriction (registry/admission/node-restriction.ts). */
  requestingNode?: RequestingNode
  /** The subresource a write goes through (`status`, ...), for admission; absent for the object itself. */
  subresource?: string
  /**
   * An object of this host's scope as stored now (null: none), for admission that reads another object (the
   * ServiceAccount admission reads the pod's ServiceAccount), as kube's plugins read their informers.
   */
  lookup?(resource: string, name: string): KubeObject | null
  /**
   * Every cluster-scoped object of a resource admission reads (PriorityClasses, StorageClasses), as kube's plugins
   * list their informers: the cluster object's own, or the copy a namespace object fetched for this write.
   */
  clusterObjects?(resource: string): KubeObject[]
  /**
   * The host's mutating admission that reads the namespace (LimitRanger's defaults into a pod), run on a create once
   * its managedFields are recorded: kube's handler runs mutating admission after its field manager, so what
   * admission sets is not the writer's.
   */
  mutatingAdmission?(obj: KubeObject): void
}

/** A writer as kinds that judge writers see it: its authorizer, its rules, and the RBAC objects roleRefs name. */
export interface Writer extends EscalationContext {
  rbac: RbacSource
}

/** A table column, as in metav1.TableColumnDefinition. */
interface TableColumn {
  name: string
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date'
  format: string
  description: string
  /** 0: always shown; 1: only with -o wide. */
  priority: number
}

export interface TableConvertor<T> {
  columns: TableColumn[]
  /** One cell per column; the server always emits the wide cells and kubectl hides priority > 0. */
  cells(obj: T, now: Date): unknown[]
}

/**
 * The hooks the generic store calls. Every hook receives decoded, null-stripped objects; hooks named prepare* may
 * mutate their first argument, validate* must not.
 */
export interface Strategy<T extends KubeObject = KubeObject> {
  /** The name rule of the kind (DNS-1123 subdomain for pods, label for namespaces...); prefix is true for generateName. */
  validateName(name: string, prefix: boolean): string[]
  /** Scheme defaulting, applied to every decoded body (create and update) before anything else, as kube does. */
  applyDefaults(obj: T): void
  /**
   * Mutating admission (kube's admission plugins): defaults the cluster adds, as opposed to the scheme's. Runs on
   * create and update after the writer's managedFields are recorded, so the writer does not own what it adds. `old` is
   * the stored object on an update, null on a create. Answers why a plugin refuses the write, if one does: the store
   * answers kube's admission.NewForbidden with it (`pods "<name>" is forbidden: <why>`), before validation.
   */
  admit?(obj: T, ctx: StrategyContext, old: T | null): string | null
  /**
   * Validating admission (kube's plugins' Validate), after the object validated: why a plugin refuses the write, as
   * for admit, or null.
   */
  validateAdmission?(obj: T, ctx: StrategyContext, old: T | null): string | null
  /** kube's WarningsOnCreate (old null) and WarningsOnUpdate: Warning headers for an accepted write. */
  warnings?(obj: T, old: T | null): string[]
  /**
   * Whether ctx.writer may write this object (create: old is null), after defaulting and before any other hook, as
   * kube's RBAC storage checks escalation before the generic store runs. Called only when ctx.writer is set.
   */
  authorizeWrite?(obj: T, old: T | null, ctx: StrategyContext): Status | null
  /** PrepareForCreate is invoked on create before validation to normalize the object: reset status, derive fields. */
  prepareForCreate(obj: T, ctx: StrategyContext): void
  /** Validate returns every field error of a new object, not just the first. */
  validate(obj: T): FieldError[]
  /** PrepareForUpdate is invoked on update before validation: carry over what the caller may not change (status). */
  prepareForUpdate(obj: T, old: T, ctx: StrategyContext): void
  /** ValidateUpdate returns every field error of an update, immutability included. */
  validateUpdate(obj: T, old: T): FieldError[]
  /**
   * Validation of a write through the /status subresource (after the status strategy kept everything but status,
   * labels and annotations from the old object). Omitted: status writes are not checked beyond metadata.
   */
  validateStatusUpdate?(obj: T, old: T): FieldError[]
  /**
   * What a write through /status derives from the new status (after everything but status, labels and annotations
   * was taken from the old object): a volume's phase transition time. Omitted: nothing.
   */
  prepareForStatusUpdate?(obj: T, old: T, ctx: StrategyContext): void
  /** The field-selector fields and their values for this object; their keys are the only fields a selector may name. */
  selectableFields(obj: T): Record<string, string>
  /** The names selectableFields returns, for rejecting unsupported field selectors before reading anything. */
  fieldSelectorNames: readonly string[]
  /** Whether a PUT without metadata.resourceVersion is allowed (an unconditional update). */
  allowUnconditionalUpdate: boolean
  /**
   * The grace period a delete gets, or 0 to delete at once. Omitted: kinds without graceful deletion delete at once.
   * Called only for objects not already gone; options.gracePeriodSeconds is the caller's wish.
   */
  gracePeriod?(obj: T, options: DeleteOptions): number
  /**
   * Called when a DELETE reaches an existing object, before grace periods and finalizers: kinds whose deletion is a
   * process (namespaces) answer the object to store instead, or a Status to refuse. Null: delete normally.
   */
  beginDelete?(obj: T, ctx: StrategyContext): { object: T } | { status: Status } | null
  table: TableConvertor<T>
}
