// kube's audit policy (audit.k8s.io/v1 Policy): reading one from YAML or JSON text with kube's validation
// (k8s.io/apiserver pkg/apis/audit/validation), and deciding a request's level and omitted stages by the first rule
// that matches (pkg/audit/policy/checker.go). On top of any policy, requests that carry credentials or secret data
// (Secrets, TokenReviews, TokenRequests) are recorded at Metadata level at most, so their bodies never reach a log.
import { parseKubeYaml } from '../registry/decoding/kube-yaml'
import { fieldError, type FieldError, renderFieldError } from '../registry/field-errors'
import type { Attributes } from '../registry/rbac/attributes'
import { isDNS1123Subdomain } from '../registry/validation/names'

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const
export type Level = (typeof LEVELS)[number]
const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const
export type Stage = (typeof STAGES)[number]

interface GroupResources {
  group: string
  resources: string[]
  resourceNames: string[]
}

interface PolicyRule {
  level: Level
  users: string[]
  userGroups: string[]
  verbs: string[]
  resources: GroupResources[]
  namespaces: string[]
  nonResourceURLs: string[]
  omitStages: Stage[]
  omitManagedFields?: boolean
}

export interface AuditPolicy {
  rules: PolicyRule[]
  omitStages: Stage[]
  omitManagedFields: boolean
}

/** What the policy decided for one request. */
export interface AuditConfig {
  level: Level
  omitStages: readonly Stage[]
  omitManagedFields: boolean
}

/** Without a policy: every request at Metadata, its ResponseComplete stage only. */
export const DEFAULT_POLICY: AuditPolicy = {
  rules: [rule({ level: 'Metadata', omitStages: ['RequestReceived'] })],
  omitStages: ['RequestReceived'],
  omitManagedFields: false,
}

function rule(r: Partial<PolicyRule> & { level: Level }): PolicyRule {
  return {
    users: [],
    userGroups: [],
    verbs: [],
    resources: [],
    namespaces: [],
    nonResourceURLs: [],
    omitStages: [],
    ...r,
  }
}

// ---- reading ------------------------------------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A list of strings at `path` (absent or null: empty), or a type error. */
function strings(v: unknown, path: string, errs: string[]): string[] {
  if (v === undefined || v === null) return []
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v
  errs.push(`${path}: expected a list of strings`)
  return []
}

function known(obj: Record<string, unknown>, fields: readonly string[], path: string, errs: string[]) {
  for (const k of Object.keys(obj)) if (!fields.includes(k)) errs.push(`unknown field "${path}${k}"`)
}

const RULE_FIELDS = [
  'level',
  'users',
  'userGroups',
  'verbs',
  'resources',
  'namespaces',
  'nonResourceURLs',
  'omitStages',
  'omitManagedFields',
] as const

/**
 * Reads a policy as kube-apiserver's --audit-policy-file does: YAML or JSON, apiVersion audit.k8s.io/v1, kind
 * Policy, strict about unknown fields, validated, with at least one rule. Each rule's omitStages gain the policy's.
 */
export function parsePolicy(text: string): { ok: true; policy: AuditPolicy } | { ok: false; error: string } {
  // Read as kube reads the file: YAML 1.1 (sigs.k8s.io/yaml over go-yaml v2).
  const read = parseKubeYaml(text)
  if ('error' in read) return { ok: false, error: `failed decoding: ${read.error}` }
  const doc = read.value
  if (!isObject(doc)) return { ok: false, error: 'failed decoding: not an object' }
  if (doc.apiVersion !== 'audit.k8s.io/v1' || doc.kind !== 'Policy')
    return {
      ok: false,
      error: `failed decoding: expected apiVersion audit.k8s.io/v1, kind Policy, got ${JSON.stringify(doc.apiVersion)}, ${JSON.stringify(doc.kind)}`,
    }
  const errs: string[] = []
  known(doc, ['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields'], '', errs)
  const rawRules = doc.rules ?? []
  if (!Array.isArray(rawRules)) errs.push('rules: expected a list')
  const omitStages = strings(doc.omitStages, 'omitStages', errs) as Stage[]
  const fieldErrs: FieldError[] = validateStages(omitStages, 'omitStages')
  const rules: PolicyRule[] = []
  ;(Array.isArray(rawRules) ? rawRules : []).forEach((raw: unknown, i) => {
    const path = `rules[${i}]`
    if (!isObject(raw)) return errs.push(`${path}: expected an object`)
    known(raw, RULE_FIELDS, `${path}.`, errs)
    const resources: GroupResources[] = []
    for (const [j, g] of (Array.isArray(raw.resources) ? raw.resources : []).entries()) {
      if (!isObject(g)) {
        errs.push(`${path}.resources[${j}]: expected an object`)
        continue
      }
      known(g, ['group', 'resources', 'resourceNames'], `${path}.resources[${j}].`, errs)
      resources.push({
        group: typeof g.group === 'string' ? g.group : '',
        resources: strings(g.resources, `${path}.resources[${j}].resources`, errs),
        resourceNames: strings(g.resourceNames, `${path}.resources[${j}].resourceNames`, errs),
      })
    }
    const r = rule({
      level: (typeof raw.level === 'string' ? raw.level : '') as Level,
      users: strings(raw.users, `${path}.users`, errs),
      userGroups: strings(raw.userGroups, `${path}.userGroups`, errs),
      verbs: strings(raw.verbs, `${path}.verbs`, errs),
      resources,
      namespaces: strings(raw.namespaces, `${path}.namespaces`, errs),
      nonResourceURLs: strings(raw.nonResourceURLs, `${path}.nonResourceURLs`, errs),
      omitStages: strings(raw.omitStages, `${path}.omitStages`, errs) as Stage[],
      omitManagedFields: typeof raw.omitManagedFields === 'boolean' ? raw.omitManagedFields : undefined,
    })
    fieldErrs.push(...validateRule(r, path))
    rules.push({ ...r, omitStages: [...new Set([...omitStages, ...r.omitStages])] })
  })
  errs.push(...fieldErrs.map(renderFieldError))
  if (errs.length > 0) return { ok: false, error: errs.join(', ') }
  if (rules.length === 0) return { ok: false, error: 'loaded illegal policy with 0 rules' }
  return { ok: true, policy: { rules, omitStages, omitManagedFields: doc.omitManagedFields === true } }
}

function validateStages(stages: readonly string[], path: string): FieldError[] {
  return stages.flatMap((s, i) =>
    (STAGES as readonly string[]).includes(s)
      ? []
      : [fieldError.invalid(`${path}[${i}]`, s, `allowed stages are ${STAGES.join(',')}`)],
  )
}

function validateRule(r: PolicyRule, path: string): FieldError[] {
  const errs: FieldError[] = []
  if (r.level === ('' as Level)) errs.push(fieldError.required(`${path}.level`))
  else if (!LEVELS.includes(r.level)) errs.push(fieldError.notSupported(`${path}.level`, r.level, LEVELS))
  r.nonResourceURLs.forEach((url, i) => {
    if (url === '*') return
    if (!url.startsWith('/'))
      errs.push(
        fieldError.invalid(
          `${path}.nonResourceURLs[${i}]`,
          url,
          "non-resource URL rules must begin with a '/' character",
        ),
      )
    if (url !== '' && url.slice(0, -1).includes('*'))
      errs.push(
        fieldError.invalid(
          `${path}.nonResourceURLs[${i}]`,
          url,
          "non-resource URL wildcards '*' must be the final character of the rule",
        ),
      )
  })
  for (const g of r.resources) {
    const groupErrors = g.group === '' ? [] : isDNS1123Subdomain(g.group)
    if (groupErrors.length > 0) errs.push(fieldError.invalid(`${path}.resources.group`, g.group, groupErrors.join(',')))
    if (g.resourceNames.length > 0 && g.resources.length === 0)
      errs.push(
        fieldError.invalid(
          `${path}.resources.resourceNames`,
          g.resourceNames,
          'using resourceNames requires at least one resource',
        ),
      )
  }
  errs.push(...validateStages(r.omitStages, `${path}.omitStages`))
  if (r.nonResourceURLs.length > 0 && (r.resources.length > 0 || r.namespaces.length > 0))
    errs.push(
      fieldError.invalid(
        `${path}.nonResourceURLs`,
        r.nonResourceURLs,
        'rules cannot apply to both regular resources and non-resource URLs',
      ),
    )
  return errs
}

// ---- deciding -----------------------------------------------------------------------------------------------------

/** kube's EvaluatePolicyRule: the first matching rule's level and stages; no match is level None. */
export function evaluatePolicy(policy: AuditPolicy, attrs: Attributes): AuditConfig {
  for (const r of policy.rules) {
    if (ruleMatches(r, attrs))
      return capped(
        {
          level: r.level,
          omitStages: r.omitStages,
          omitManagedFields: r.omitManagedFields ?? policy.omitManagedFields,
        },
        attrs,
      )
  }
  return { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields }
}

/** Requests whose bodies hold secret data or credentials: Metadata at most, whatever the policy says. */
function capped(config: AuditConfig, attrs: Attributes): AuditConfig {
  const r = attrs.resource
  const sensitive =
    attrs.resourceRequest &&
    (r === 'secrets' || r === 'tokenreviews' || (r === 'serviceaccounts' && attrs.subresource === 'token'))
  return sensitive && LEVELS.indexOf(config.level) > LEVELS.indexOf('Metadata')
    ? { ...config, level: 'Metadata' }
    : config
}

function ruleMatches(r: PolicyRule, attrs: Attributes): boolean {
  if (r.users.length > 0 && !r.users.includes(attrs.user.name)) return false
  if (r.userGroups.length > 0 && !attrs.user.groups.some((g) => r.userGroups.includes(g))) return false
  if (r.verbs.length > 0 && !r.verbs.includes(attrs.verb)) return false
  if (r.namespaces.length > 0 || r.resources.length > 0) return resourceMatches(r, attrs)
  if (r.nonResourceURLs.length > 0)
    return !attrs.resourceRequest && r.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec))
  return true
}

function pathMatches(path: string, spec: string): boolean {
  return spec === '*' || spec === path || (spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, '')))
}

function resourceMatches(r: PolicyRule, attrs: Attributes): boolean {
  if (!attrs.resourceRequest) return false
  // Non-namespaced resources use the empty string.
  if (r.namespaces.length > 0 && !r.namespaces.includes(attrs.namespace)) return false
  if (r.resources.length === 0) return true
  const { resource, subresource, name } = attrs
  const combined = subresource ? `${resource}/${subresource}` : resource
  for (const g of r.resources) {
    if (g.group !== attrs.apiGroup) continue
    if (g.resources.length === 0) return true
    if (g.resourceNames.length > 0 && !g.resourceNames.includes(name)) continue
    for (const res of g.resources) {
      if (res === combined || res === '*') return true
      if (subresource && res.startsWith('*/') && subresource === res.slice(2)) return true
      if (res.endsWith('/*') && resource === res.slice(0, -2)) return true
    }
  }
  return false
}
