// The labels kube-apiserver files a request under (k8s.io/apiserver pkg/endpoints/metrics: MonitorRequest,
// CanonicalVerb, CleanVerb, cleanDryRun; the route's scope from pkg/endpoints/installer.go), read from the request's
// authorization attributes so the path is interpreted once.
import type { Attributes } from '../registry/rbac/attributes'

/** The request facts the labels depend on beyond its attributes. */
interface RequestFacts {
  method: string
  /** Every value of a query parameter, in order. */
  queryAll(name: string): string[]
  contentType: string | undefined
}

/** What apiserver_request_total and apiserver_request_duration_seconds file a request under. */
export interface RequestLabels {
  verb: string
  dryRun: string
  group: string
  version: string
  resource: string
  subresource: string
  scope: string
  /** readOnly or mutating (apiserver_current_inflight_requests' request_kind). */
  kind: 'readOnly' | 'mutating'
  /** Long-running requests (watches, connect subresources) count in neither inflight nor latency SLOs. */
  longRunning: boolean
}

export const COMPONENT = 'apiserver'

const VALID_VERBS = new Set([
  'APPLY',
  'CONNECT',
  'CREATE',
  'DELETE',
  'DELETECOLLECTION',
  'GET',
  'LIST',
  'PATCH',
  'POST',
  'PROXY',
  'PUT',
  'UPDATE',
  'WATCH',
  'WATCHLIST',
])
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy'])
/** kube's BasicLongRunningRequestCheck: these verbs and subresources never hold an inflight slot. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy'])
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward'])
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch'])

/** The route's scope as the installer registers it: named or POST → resource, else namespace or cluster. */
function scopeOf(attrs: Attributes, method: string): string {
  if (!attrs.resourceRequest) return ''
  if (attrs.name !== '' || method === 'POST') return 'resource'
  return attrs.namespace !== '' ? 'namespace' : 'cluster'
}

/** kube's getVerbIfWatch: `watch` present and its first value neither "0" nor "false". */
function watchQuery(facts: RequestFacts): boolean {
  const values = facts.queryAll('watch')
  if (values.length === 0) return false
  const v = values[0]!.toLowerCase()
  return v !== '0' && v !== 'false'
}

/** cleanDryRun: '' when absent, "invalid" unless every value is All, else the sorted distinct values. */
function dryRunOf(facts: RequestFacts): string {
  const values = facts.queryAll('dryRun')
  if (values.length === 0) return ''
  if (values.some((v) => v !== 'All')) return 'invalid'
  return [...new Set(values)].sort().join(',')
}

export function requestLabels(attrs: Attributes, facts: RequestFacts): RequestLabels {
  const method = facts.method.toUpperCase()
  const scope = scopeOf(attrs, method)
  let verb = method === 'GET' || method === 'HEAD' ? (scope !== 'resource' && scope !== '' ? 'LIST' : 'GET') : method
  // The deprecated /watch/ paths are WATCH routes; ?watch=true turns a GET or LIST into one.
  if (attrs.verb === 'watch' || ((method === 'GET' || method === 'LIST') && watchQuery(facts))) verb = 'WATCH'
  if (method === 'PATCH' && facts.contentType === 'application/apply-patch+yaml') verb = 'APPLY'
  if (attrs.resourceRequest && CONNECT_SUBRESOURCES.has(attrs.subresource)) verb = 'CONNECT'
  if (!VALID_VERBS.has(verb)) verb = 'other'
  const resource = attrs.resourceRequest
  return {
    verb,
    dryRun: dryRunOf(facts),
    group: resource ? attrs.apiGroup : '',
    version: resource ? attrs.apiVersion : '',
    resource: resource ? attrs.resource : '',
    subresource: resource ? attrs.subresource : '',
    scope,
    kind: READ_ONLY_VERBS.has(attrs.verb) ? 'readOnly' : 'mutating',
    longRunning:
      LONG_RUNNING_VERBS.has(attrs.verb) || (attrs.resourceRequest && LONG_RUNNING_SUBRESOURCES.has(attrs.subresource)),
  }
}

/** The label values of apiserver_request_total, in its label order (code last). */
export const requestTotalValues = (l: RequestLabels, code: number) => [
  l.verb,
  l.dryRun,
  l.group,
  l.version,
  l.resource,
  l.subresource,
  l.scope,
  COMPONENT,
  String(code),
]

/** The label values of apiserver_request_duration_seconds, in its label order. */
export const requestDurationValues = (l: RequestLabels) => [
  l.verb,
  l.dryRun,
  l.group,
  l.version,
  l.resource,
  l.subresource,
  l.scope,
  COMPONENT,
]
