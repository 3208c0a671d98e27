// The RBAC objects authorization reads, cached per isolate (kube's authorizer reads informer caches, never storage):
// the cluster's ClusterRoles and ClusterRoleBindings from the cluster Durable Object, each namespace's Roles and
// RoleBindings from its own. A copy is used for up to a second, then revalidated with a conditional fetch (the host
// answers "unchanged" for the version we hold). A refusal asks for a copy fetched after the request arrived, so a
// grant is effective at once; a revocation takes effect within the second (at once through this isolate, whose RBAC
// writes drop its copy).
import type { ClusterRbac, Snapshot } from '../host/rpc-types'
import type { RbacSource } from '../registry/rbac/rule-resolver'
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../schema/rbac'
import type { KubeObject } from '../schema/meta'

/** How long a copy is used without asking whether it changed. */
const FRESH_MS = 1000
/** Namespaces whose copies an isolate keeps; the least recently used go first. */
const NAMESPACE_CAPACITY = 1024

const CLUSTER_RESOURCES = ['clusterroles', 'clusterrolebindings']
const NAMESPACE_RESOURCES = ['roles', 'rolebindings']

/** Asks the host of a scope ('' for the cluster) for its RBAC objects; see ObjectHost.snapshot. */
type FetchSnapshot = (scope: string, resources: string[], since?: number) => Promise<Snapshot>

interface Copy {
  version: number
  /** When the fetch that produced or confirmed this copy started. */
  checkedAt: number
  roles: Map<string, KubeObject>
  bindings: KubeObject[]
  /** The view last built on this copy (a namespace's: with the cluster copy it was built with). */
  view?: { cluster: Copy; view: RbacView }
}

interface Pending {
  startedAt: number
  done: Promise<Copy>
}

/** One scope's view as a rule resolver reads it, with the version compiled rules are cached under. */
interface RbacView {
  source: RbacSource
  version: string
  /** When the oldest copy this view was built from was checked (a refusal needs it to be after the request began). */
  checkedAt: number
  /** The cluster's RBAC objects as held, for a namespace host judging a writer (src/host/writer.ts). */
  cluster: ClusterRbac
}

export class RbacCache {
  private readonly copies = new Map<string, Copy>()
  private readonly pending = new Map<string, Pending>()

  constructor(
    private readonly fetch: FetchSnapshot,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The RBAC objects a request in `namespace` ('' for cluster scope) is judged by. `notBefore`: only copies checked
   * at or after this time will do (a refusal's second look); without it, a copy younger than a second will.
   */
  async view(namespace: string, notBefore?: number): Promise<RbacView> {
    const cluster = this.copy('', notBefore)
    const local = namespace === '' ? null : this.copy(namespace, notBefore)
    // The usual case, both copies fresh, allocates nothing: the view built for this pair of copies is reused.
    if (!(cluster instanceof Promise) && !(local instanceof Promise)) return viewOf(cluster, namespace, local)
    const [c, l] = await Promise.all([cluster, local])
    return viewOf(c, namespace, l)
  }

  /** A write of `resource` in `namespace` went through this isolate: the copy it may have changed is checked again. */
  noteWrite(resource: string, namespace: string) {
    const scope = CLUSTER_RESOURCES.includes(resource) ? '' : NAMESPACE_RESOURCES.includes(resource) ? namespace : null
    const copy = scope === null ? undefined : this.copies.get(scope)
    if (copy) copy.checkedAt = Number.NEGATIVE_INFINITY
  }

  /** The copy of a scope if one fresh enough is held, else its fetch. */
  private copy(scope: string, notBefore?: number): Copy | Promise<Copy> {
    const held = this.copies.get(scope)
    const wanted = notBefore ?? this.clock() - FRESH_MS
    if (held && held.checkedAt >= wanted) {
      // Most recently used last, for eviction (the cluster's copy is never evicted: no need to move it).
      if (scope !== '') {
        this.copies.delete(scope)
        this.copies.set(scope, held)
      }
      return held
    }
    const inflight = this.pending.get(scope)
    if (inflight && inflight.startedAt >= wanted) return inflight.done
    return this.refresh(scope, held)
  }

  private refresh(scope: string, held: Copy | undefined): Promise<Copy> {
    const startedAt = this.clock()
    const resources = scope === '' ? CLUSTER_RESOURCES : NAMESPACE_RESOURCES
    const done = this.fetch(scope, resources, held?.version).then((snap) => {
      const [roleResource, bindingResource] = resources as [string, string]
      const copy: Copy =
        snap.objects === null && held
          ? { ...held, checkedAt: startedAt, view: undefined }
          : {
              version: snap.version,
              checkedAt: startedAt,
              roles: new Map((snap.objects?.[roleResource] ?? []).map((r) => [r.metadata.name ?? '', r])),
              bindings: snap.objects?.[bindingResource] ?? [],
            }
      const current = this.copies.get(scope)
      // A slower, older fetch never replaces a newer copy.
      if (!current || current.checkedAt <= startedAt) {
        this.copies.delete(scope)
        this.copies.set(scope, copy)
        if (this.copies.size > NAMESPACE_CAPACITY + 1) this.evictOne()
      }
      return copy
    })
    const entry = { startedAt, done }
    this.pending.set(scope, entry)
    const clear = () => {
      if (this.pending.get(scope) === entry) this.pending.delete(scope)
    }
    done.then(clear, clear)
    return done
  }

  private evictOne() {
    for (const scope of this.copies.keys()) {
      if (scope !== '') {
        this.copies.delete(scope)
        return
      }
    }
  }
}

/** The view of a pair of copies, built once per pair (copies are replaced, never changed, when RBAC objects change). */
function viewOf(cluster: Copy, namespace: string, local: Copy | null): RbacView {
  const home = local ?? cluster
  if (home.view?.cluster === cluster) return home.view.view
  const view: RbacView = {
    source: sourceOf(cluster, namespace, local),
    version: local ? `${cluster.version}/${local.version}` : `${cluster.version}`,
    checkedAt: Math.min(cluster.checkedAt, local?.checkedAt ?? Number.POSITIVE_INFINITY),
    cluster: { clusterRoles: [...cluster.roles.values()], clusterRoleBindings: cluster.bindings },
  }
  home.view = { cluster, view }
  return view
}

function sourceOf(cluster: Copy, namespace: string, local: Copy | null): RbacSource {
  return {
    clusterRoleBindings: () => cluster.bindings as unknown as ClusterRoleBinding[],
    clusterRole: (name) => (cluster.roles.get(name) as unknown as ClusterRole | undefined) ?? null,
    roleBindings: (ns) => (ns === namespace && local ? (local.bindings as unknown as RoleBinding[]) : []),
    role: (ns, name) =>
      ns === namespace && local ? ((local.roles.get(name) as unknown as Role | undefined) ?? null) : null,
  }
}
