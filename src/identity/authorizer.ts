// The authorization decision for a request, in one place: AlwaysAllow when configured so, else kube's chain
// (system:masters, then the Node authorizer, then RBAC over compiled rules from this isolate's RBAC cache), as
// kube-apiserver --authorization-mode=Node,RBAC. A refusal is looked at once more with RBAC objects read after the
// request arrived, so a grant made a moment ago anywhere is honoured; its reason is every authorizer's, one a line.
import type { Requester } from '../host/rpc-types'
import type { Attributes } from '../registry/rbac/attributes'
import { authorize } from '../registry/rbac/authorizer'
import { CompiledRulesCache } from '../registry/rbac/compiled-rules'
import { type NotFoundWording, rulesFor } from '../registry/rbac/rule-resolver'
import type { PolicyRule } from '../schema/rbac'
import type { ResourceDef } from '../registry/resource'
import { MASTERS_GROUP, type UserInfo } from '../registry/user-info'
import { type NodeGraph, nodeAuthorize } from './node-authorizer'
import { DurableNodeGraph } from './node-graph'
import { RbacCache } from './rbac-cache'

export interface Decision {
  allowed: boolean
  /** kube's reason: `RBAC: allowed by ...`, or the role lookups that failed; '' when there is none. */
  reason: string
}

/** What a request's authorizer needs of the isolate: its RBAC cache and the compiled rules per identity. */
interface IsolateState {
  cache: RbacCache
  compiled: CompiledRulesCache
  graph: NodeGraph
}

const isolates = new WeakMap<object, IsolateState>()

function isolateState(env: Env): IsolateState {
  let state = isolates.get(env.CLUSTER)
  if (!state) {
    state = {
      cache: new RbacCache((scope, resources, since) =>
        (scope === '' ? env.CLUSTER.getByName('cluster') : env.NAMESPACES.getByName(scope)).snapshot(resources, since),
      ),
      compiled: new CompiledRulesCache(),
      graph: DurableNodeGraph.of(env),
    }
    isolates.set(env.CLUSTER, state)
  }
  return state
}

export class Authorizer {
  private readonly state: IsolateState

  constructor(
    env: Env,
    private readonly alwaysAllow: boolean,
  ) {
    this.state = isolateState(env)
  }

  /** kube's authorizer chain for these attributes; `arrivedAt` is when the request arrived (ms since epoch). */
  async authorize(attrs: Attributes, arrivedAt: number): Promise<Decision> {
    if (this.alwaysAllow || attrs.user.groups.includes(MASTERS_GROUP)) return { allowed: true, reason: '' }
    // kube's chain is Node, then RBAC: a node's own identity is judged first (src/identity/node-authorizer.ts).
    const byNode = await nodeAuthorize(attrs, this.state.graph)
    if (byNode.allowed) return byNode
    let view = await this.state.cache.view(attrs.namespace)
    let decision = authorize(attrs, this.state.compiled.get(attrs.user, attrs.namespace, view.version, view.source))
    if (!decision.allowed && view.checkedAt < arrivedAt) {
      view = await this.state.cache.view(attrs.namespace, arrivedAt)
      decision = authorize(attrs, this.state.compiled.get(attrs.user, attrs.namespace, view.version, view.source))
    }
    if (decision.allowed || !byNode.reason) return decision
    // kube's union authorizer: no one allowed, so the reasons of all are given, one a line.
    return { allowed: false, reason: decision.reason ? `${byNode.reason}\n${decision.reason}` : byNode.reason }
  }

  /** Every rule the user holds in a namespace ('' for cluster scope), and the lookups that failed. */
  async rulesFor(
    user: UserInfo,
    namespace: string,
    wording: NotFoundWording = 'lister',
  ): Promise<{ rules: PolicyRule[]; errors: string[] }> {
    const view = await this.state.cache.view(namespace)
    return rulesFor(user, namespace, view.source, wording)
  }

  /**
   * The requester a write carries into its host, for kinds whose strategy judges the writer (RBAC's escalation
   * checks); undefined for other kinds, and when authorization is off (AlwaysAllow grants escalate and bind).
   */
  async requester(user: UserInfo, def: ResourceDef): Promise<Requester | undefined> {
    if (!def.strategy.authorizeWrite || this.alwaysAllow) return undefined
    // The cluster's host holds the cluster's RBAC objects itself; a namespace's host is given our copy of them.
    if (def.home === 'cluster') return { user }
    return { user, cluster: (await this.state.cache.view('')).cluster }
  }

  /** A write of `resource` in `namespace` went through this isolate: RBAC objects it may have changed are reread. */
  noteWrite(resource: string, namespace: string) {
    this.state.cache.noteWrite(resource, namespace)
  }
}
