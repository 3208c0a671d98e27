// The write verbs' planning, as it runs inside the write queue: which resource row a write plans with, each verb's
// plan against the current state (create, update, patch, delete), and the job that turns a plan into a commit.
import type { LogEntry } from '../registry/store'
import { planDelete } from '../registry/store-delete'
import { planApply, planCreate, planUpdate, type Change, type Manager, type Stored } from '../registry/store'
import { statuses, fail, ok, type Result, type Status } from '../registry/status'
import { resourceKey, type ResourceDef } from '../registry/resource'
import type { StrategyContext, Writer } from '../registry/strategy'
import type { DeleteOptions, KubeObject } from '../schema/meta'
import { kinds, resourceByPlural } from '../registry/resources'
import { statusDefOf } from '../registry/status-subresource'
import { uidPreconditionFailure, updatePrecondition } from '../registry/preconditions'
import { ephemeralDefOf } from '../registry/ephemeral-containers-subresource'
import { bindingDefOf } from '../registry/binding-subresource'
import { clone } from '../registry/deep-equal'
import type { Desired, Mutation } from './controller'
import { applyScale, scaleOf, scaleRow, servesScale } from '../registry/scale-subresource'
import { betaReplacement } from '../registry/v1beta1/replace'
import { applyPatch, decodeApplied, type PatchType } from '../registry/patch/apply-patch'
import type { CreationTokens } from './creation-tokens'
import type { PatchOptions, Requester, WriteAnswer, WriteOptions } from './rpc-types'
import type { JobPlan } from './write-queue'

/** A verb's plan: the change to commit (null: nothing to do) or a refusal, and a graceful deletion's removal time. */
export interface VerbPlan {
  /** `declined`: a mutation chose to change nothing. */
  plan: Result<{ change: Change | null; object: KubeObject; created?: boolean; declined?: boolean; pending?: boolean }>
  removeAt?: number
}

/** What the verbs plan against: the host's state and its plan-time admission. */
export interface PlanningHost {
  /** '' for the cluster scope, the namespace name otherwise. */
  scope(): string
  strategyContext(): StrategyContext
  get(resource: string, name: string): Stored | null
  exists(resource: string, name: string): boolean
  /** Create admission, synchronously, at plan time inside the write queue. */
  admitCreateNow(def: ResourceDef, name: string): Status | null
  /** The writer strategies judge (StrategyContext.writer), from a request's requester. */
  writer(requester: Requester): Writer
}

/** The strategy context a write plans with: the host's, and the writer when the request names one. */
function contextOf(host: PlanningHost, opts: WriteOptions): StrategyContext {
  const ctx = host.strategyContext()
  // A node's writes carry it, and the subresource they go through, for NodeRestriction.
  if (opts.node) Object.assign(ctx, { requestingNode: opts.node, subresource: opts.subresource })
  return opts.requester ? { ...ctx, writer: host.writer(opts.requester) } : ctx
}

/** What turning a plan into a queued job needs from the host. */
interface JobHost {
  /** See StoreHost.beginChange. */
  beginChange(
    def: ResourceDef,
    change: Change,
    dryRun: boolean,
  ): Promise<{ status?: Status; rollback?: () => Promise<void> }>
  /** Records a graceful deletion's removal time, set once the change applies. */
  expect(resource: string, name: string, removeAt: number): void
}

const managerOf = (opts: WriteOptions): Manager | undefined =>
  opts.fieldManager
    ? { name: opts.fieldManager, ...(opts.subresource ? { subresource: opts.subresource } : {}) }
    : undefined

/** The resource row a write plans with: the kind's own, or that of the subresource it goes through (none: 404). */
export function defFor(resource: string, subresource: string | undefined, version?: string): ResourceDef | undefined {
  const stored = resourceByPlural(resource)
  const def = stored && version ? (kinds.inVersion(stored, version) ?? stored) : stored
  if (!def || subresource === undefined) return def
  if (subresource === 'status') return statusDefOf(def)
  if (subresource === 'ephemeralcontainers') return ephemeralDefOf(def)
  if (subresource === 'binding') return bindingDefOf(def)
  // Scale writes are planned on the kind's own row (planScaleVerb converts).
  if (subresource === 'scale') return servesScale(def) ? def : undefined
  return undefined
}

/**
 * POST: admission again (synchronously, so a create cannot slip in after termination began), the creation token's
 * twin check, then the generic store's create. `me` is this create's own claim on its token.
 */
export function planCreateVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  input: KubeObject,
  opts: WriteOptions,
  tokens: CreationTokens,
  me: symbol,
): VerbPlan {
  const token = opts.idempotencyKey
  const refusedNow = host.admitCreateNow(def, input.metadata?.name ?? '')
  if (refusedNow) return { plan: fail(refusedNow) }
  if (token) {
    const twin = tokens.conflict(token, me, host.scope())
    if (twin) return { plan: fail(twin) }
  }
  const plan = planCreate(def, contextOf(host, opts), input, (n) => host.exists(resource, n), managerOf(opts))
  if (plan.ok && token && !opts.dryRun) {
    tokens.reserve(token, me, resource, plan.value.name, plan.value.object.metadata.uid ?? '')
  }
  return { plan: plan.ok ? ok({ change: plan.value, object: plan.value.object, created: true }) : plan }
}

/** PUT. */
export function planUpdateVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  input: KubeObject,
  opts: WriteOptions,
): VerbPlan {
  if (opts.subresource === 'scale')
    return planScaleVerb(host, def, resource, name, () => ok({ object: input, warnings: [] }), opts, input)
  if (opts.codec === 'v1beta1')
    return planMutation(host, def, resource, name, (cur) => betaReplacement(def, cur.object, cur.rv, input, name), opts)
  const current = host.get(resource, name)
  const plan = planUpdate(def, contextOf(host, opts), name, input, current, managerOf(opts), updatePrecondition(input))
  return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object }) : plan }
}

/**
 * PATCH: applies the patch to the current object, then updates as a PUT would (server-side apply may create).
 * `warnings` are the fieldValidation=Warn findings of decoding the patch, once it decoded.
 */
export function planPatchVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  type: PatchType,
  body: string,
  opts: PatchOptions,
): VerbPlan & { warnings?: string[] } {
  const current = host.get(resource, name)
  if (type === 'apply') {
    const applied = decodeApplied(def, body, opts.fieldValidation)
    if (!applied.ok) return { plan: applied }
    const warnings = applied.value.warnings
    // A subresource is never created by applying to it.
    if (!current && opts.subresource)
      return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)), warnings }
    if (!current) {
      const refused = host.admitCreateNow(def, name)
      if (refused) return { plan: fail(refused), warnings }
    }
    const plan = planApply(
      def,
      contextOf(host, opts),
      name,
      applied.value.object,
      current,
      (n) => host.exists(resource, n),
      opts.fieldManager ?? 'unknown',
      opts.force ?? false,
      opts.subresource,
    )
    return {
      plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object, created: plan.value.created }) : plan,
      warnings,
    }
  }
  if (opts.subresource === 'scale')
    return planScaleVerb(
      host,
      def,
      resource,
      name,
      (view) => applyPatch(scaleRow(def), view, type, body, opts.fieldValidation),
      opts,
    )
  if (!current) return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)) }
  const patched = applyPatch(def, current.object, type, body, opts.fieldValidation)
  if (!patched.ok) return { plan: patched }
  const warnings = patched.value.warnings
  const plan = planUpdate(def, contextOf(host, opts), name, patched.value.object, current, managerOf(opts))
  return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object }) : plan, warnings }
}

/**
 * A read-modify-write next to the state (kube's GuaranteedUpdate): `mutate` sees a copy of the newest object when the
 * write is planned and answers what to PUT, so the update cannot conflict. A mutation that declines plans nothing.
 */
export function planMutateVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  mutate: Mutation,
  opts: WriteOptions,
): VerbPlan {
  const current = host.get(resource, name)
  if (!current) return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)) }
  const next = mutate(clone(current.object))
  if (!next) return { plan: ok({ change: null, object: current.object, declined: true }) }
  next.metadata.resourceVersion = String(current.rv)
  const plan = planUpdate(def, contextOf(host, opts), name, next, current, managerOf(opts))
  return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object }) : plan }
}

/** A controller's level-triggered write: whatever `decide` wants given the newest state, planned by its verb. */
export function planReconcileVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  decide: (current: KubeObject | null) => Desired,
  opts: WriteOptions,
): VerbPlan {
  const current = host.get(resource, name)
  const desired = decide(current ? clone(current.object) : null)
  if (!desired) return { plan: ok({ change: null, object: current?.object ?? { metadata: { name } }, declined: true }) }
  if ('delete' in desired) return planDeleteVerb(host, def, resource, name, desired.delete)
  if ('update' in desired) return planMutateVerb(host, def, resource, name, () => desired.update, opts)
  const refused = host.admitCreateNow(def, name)
  if (refused) return { plan: fail(refused) }
  const plan = planCreate(def, contextOf(host, opts), desired.create, (n) => host.exists(resource, n), managerOf(opts))
  return { plan: plan.ok ? ok({ change: plan.value, object: plan.value.object, created: true }) : plan }
}

/** An update computed from the newest stored object, or refused; planned like a PUT. */
function planMutation(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  next: (current: Stored) => Result<KubeObject>,
  opts: WriteOptions,
): VerbPlan {
  const current = host.get(resource, name)
  if (!current) return { plan: fail(statuses.notFound({ resource: def.plural, group: def.group || undefined }, name)) }
  const updated = next(current)
  if (!updated.ok) return { plan: updated }
  const plan = planUpdate(
    def,
    contextOf(host, opts),
    name,
    updated.value,
    current,
    managerOf({ ...opts, subresource: undefined }),
  )
  return { plan: plan.ok ? ok({ change: plan.value.change, object: plan.value.object }) : plan }
}

/**
 * A write through /scale: `next` makes the Scale to write from the current Scale view (without its resourceVersion,
 * so one in the answer is the caller's precondition), and only the replicas it names are planned as an update. A PUT's
 * Scale (`put`) carries a uid precondition as any PUT body does (kube's scale subresources pass the request's
 * preconditions on).
 */
function planScaleVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  next: (view: KubeObject) => Result<{ object: KubeObject; warnings: string[] }>,
  opts: WriteOptions,
  put?: KubeObject,
): VerbPlan & { warnings?: string[] } {
  let warnings: string[] = []
  const uid = put ? updatePrecondition(put) : undefined
  const planned = planMutation(
    host,
    def,
    resource,
    name,
    (current) => {
      const failed = uidPreconditionFailure(def, host.strategyContext().namespace, name, uid, current.object)
      if (failed) return fail(failed)
      const view = scaleOf(current.object, def)
      delete view.metadata.resourceVersion
      const scale = next(view)
      if (!scale.ok) return scale
      warnings = scale.value.warnings
      const updated = applyScale(def, current.object, current.rv, scale.value.object, name)
      if (updated.ok) updated.value.metadata.resourceVersion = String(current.rv)
      return updated
    },
    opts,
  )
  return { ...planned, warnings }
}

/** DELETE: a graceful one answers the time its object is due for removal. */
export function planDeleteVerb(
  host: PlanningHost,
  def: ResourceDef,
  resource: string,
  name: string,
  options: DeleteOptions,
  opts: WriteOptions = {},
): VerbPlan {
  const plan = planDelete(def, contextOf(host, opts), name, host.get(resource, name), options)
  if (!plan.ok) return { plan }
  const { change, object } = plan.value
  const pending = change?.type !== 'DELETED'
  return { plan: ok({ change, object, ...(pending ? { pending } : {}) }), removeAt: plan.value.removeAt }
}

/**
 * Turns a verb's plan into a write-queue job. A dry run plans against the same state but commits nothing; the
 * would-be object is answered without a resourceVersion.
 */
export async function writeJob(
  host: JobHost,
  def: ResourceDef,
  { plan, removeAt }: VerbPlan,
  opts: WriteOptions,
): Promise<JobPlan<Result<WriteAnswer>>> {
  if (!plan.ok) return { changes: [], finish: () => plan }
  const { change, object, created, declined, pending } = plan.value
  let rollback: (() => Promise<void>) | undefined
  if (change) {
    // Reservations outside this object (cluster-wide IPs and ports) happen after validation, as kube's
    // BeginCreate/BeginUpdate hooks do, and are undone if the change does not commit.
    const begun = await host.beginChange(def, change, opts.dryRun ?? false)
    if (begun.status) return { changes: [], finish: () => fail<WriteAnswer>(begun.status!) }
    rollback = begun.rollback
  }
  if (opts.dryRun || change === null) {
    const answer = change?.object ?? object
    // A dry run answers what the write would have: kube's dry-run storage keeps the resourceVersion the change was
    // planned against (so `kubectl diff --server-side` sees no difference), and a create has none yet.
    if (opts.dryRun && change) {
      if (change.prevRv !== null) answer.metadata.resourceVersion = String(change.prevRv)
      else delete answer.metadata.resourceVersion
    }
    await rollback?.()
    const unchanged = !opts.dryRun && !declined
    return {
      changes: [],
      finish: () =>
        ok(
          declined
            ? { object: answer, declined }
            : unchanged
              ? { object: answer, created, unchanged, ...(pending ? { pending } : {}) }
              : { object: answer, created, ...(pending ? { pending } : {}) },
        ),
    }
  }
  if (removeAt !== undefined) host.expect(resourceKey(def), change.name, removeAt)
  return {
    changes: [change],
    finish: (entries: LogEntry[]) => ok({ object: entries[0]!.object, created, ...(pending ? { pending } : {}) }),
    rollback,
  } satisfies JobPlan<Result<WriteAnswer>>
}
