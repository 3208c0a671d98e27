// A user's applicable rules compiled once into indexes keyed by verb, API group and resource (or path), so a request
// is judged with a dozen map lookups instead of a walk over every binding and rule; and the cache that keeps the
// compiled form per (source version, namespace, user, groups).
//
// Intended caching: the Worker keeps one CompiledRulesCache per isolate. `version` names the state of the RBAC
// objects the compiled rules were read from (for example the cluster's RBAC revision and the namespace's, joined);
// any change to a ClusterRoleBinding, ClusterRole, or the namespace's RoleBindings and Roles must change it. A request
// then costs one Map lookup for its user plus the index lookups below; entries of old versions are never read again
// and age out of the LRU.
import type { PolicyRule } from '../../schema/rbac'
import type { UserInfo } from '../user-info'
import type { Attributes } from './attributes'
import { type NotFoundWording, type RbacSource, type RuleSource, visitRulesFor } from './rule-resolver'

const ALL = '*'

/** One rule's grant under one key; `index` is the rule's place in kube's visit order. */
interface Grant {
  index: number
  /** null: any name. */
  names: Set<string> | null
  source: RuleSource
}

interface PrefixGrant {
  prefix: string
  grant: Grant
}

/** What a compiled lookup found: the first allowing rule in visit order, with the binding that granted it. */
interface RuleMatch {
  source: RuleSource
}

/** verb → group → resource (as written in the rule: `pods`, `pods/log`, `*`, `*\/scale`) → grants in visit order. */
type ResourceIndex = Map<string, Map<string, Map<string, Grant[]>>>

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k)
  if (list) list.push(v)
  else m.set(k, [v])
}

function child<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k)
  if (v === undefined) m.set(k, (v = make()))
  return v
}

export class CompiledRules {
  private readonly resources: ResourceIndex = new Map()
  /** verb → exact path → grants. */
  private readonly paths = new Map<string, Map<string, Grant[]>>()
  /** verb → rules ending in `*` (`*` alone is the empty prefix). */
  private readonly prefixes = new Map<string, PrefixGrant[]>()
  /** Every resolution error met while compiling: kube's denial reason when nothing allows. */
  readonly errors: string[] = []
  private count = 0

  add(rule: PolicyRule, source: RuleSource) {
    const index = this.count++
    const names = rule.resourceNames?.length ? new Set(rule.resourceNames) : null
    const grant: Grant = { index, names, source }
    // Non-resource matching never looks at resourceNames (validation keeps them apart anyway).
    const pathGrant: Grant = { index, names: null, source }
    for (const verb of rule.verbs ?? []) {
      const byGroup = child(this.resources, verb, () => new Map<string, Map<string, Grant[]>>())
      for (const group of rule.apiGroups ?? []) {
        const byResource = child(byGroup, group, () => new Map<string, Grant[]>())
        for (const resource of rule.resources ?? []) push(byResource, resource, grant)
      }
      for (const url of rule.nonResourceURLs ?? []) {
        if (url.endsWith('*')) push(this.prefixes, verb, { prefix: url.replace(/\*+$/, ''), grant: pathGrant })
        else
          push(
            child(this.paths, verb, () => new Map<string, Grant[]>()),
            url,
            pathGrant,
          )
      }
    }
  }

  /** The first rule in visit order that allows the request, or null. Agrees with ruleAllows over rulesFor. */
  match(attrs: Attributes): RuleMatch | null {
    let best: Grant | null = null
    const verbs = attrs.verb === ALL ? ONLY_ALL : [attrs.verb, ALL]
    for (const verb of verbs) {
      if (attrs.resourceRequest) {
        const byGroup = this.resources.get(verb)
        if (!byGroup) continue
        const sub = attrs.subresource
        const combined = sub ? `${attrs.resource}/${sub}` : attrs.resource
        for (const group of attrs.apiGroup === ALL ? ONLY_ALL : [attrs.apiGroup, ALL]) {
          const byResource = byGroup.get(group)
          if (!byResource) continue
          best = first(byResource.get(combined), attrs.name, best)
          if (combined !== ALL) best = first(byResource.get(ALL), attrs.name, best)
          if (sub) best = first(byResource.get(`*/${sub}`), attrs.name, best)
        }
      } else {
        best = first(this.paths.get(verb)?.get(attrs.path), attrs.name, best)
        for (const p of this.prefixes.get(verb) ?? []) {
          if ((!best || p.grant.index < best.index) && attrs.path.startsWith(p.prefix)) best = p.grant
        }
      }
    }
    return best ? { source: best.source } : null
  }
}

const ONLY_ALL = [ALL]

/** The earliest grant of a list that admits the name, if it comes before `best`; else `best`. */
function first(grants: Grant[] | undefined, name: string, best: Grant | null): Grant | null {
  if (!grants) return best
  for (const g of grants) {
    // Lists are in visit order: nothing after `best` can win.
    if (best && g.index >= best.index) return best
    if (!g.names || g.names.has(name)) return g
  }
  return best
}

/** Compiles every rule that applies to the user in the namespace (ClusterRoleBindings, then the RoleBindings). */
export function compileRules(
  user: UserInfo,
  namespace: string,
  source: RbacSource,
  wording: NotFoundWording = 'lister',
): CompiledRules {
  const compiled = new CompiledRules()
  visitRulesFor(
    user,
    namespace,
    source,
    (src, rule, error) => {
      if (rule && src) compiled.add(rule, src)
      if (error) compiled.errors.push(error)
      return true
    },
    wording,
  )
  return compiled
}

/** Compiled rules per (version, namespace, user, groups), least recently used evicted past `capacity`. */
export class CompiledRulesCache {
  private readonly entries = new Map<string, CompiledRules>()
  constructor(private readonly capacity = 1024) {}

  get(user: UserInfo, namespace: string, version: string, source: RbacSource): CompiledRules {
    // Only the name and groups decide what RBAC grants (uid and extra never do).
    const key = `${version}\u0000${namespace}\u0000${user.name}\u0000${user.groups.join('\u0000')}`
    let compiled = this.entries.get(key)
    if (compiled) {
      this.entries.delete(key)
    } else {
      compiled = compileRules(user, namespace, source)
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!)
    }
    this.entries.set(key, compiled)
    return compiled
  }
}
