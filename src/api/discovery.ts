// Discovery, generated from the resource table: /api, /apis, /api/v1 (legacy) and aggregated discovery (v2).
import type { Context } from 'hono'
import { kinds } from '../registry/resources'
import { statuses } from '../registry/status'
import { apiVersionOf, type ResourceDef } from '../registry/resource'
import { json, negotiate } from './respond'
import { discoveryETag } from './discovery-etag'
import { DISCOVERY_ENDPOINT, isAggregatedDiscovery, negotiateMediaType } from './negotiation'

/** Subresources a kind serves, with their verbs and response kind (filled in as features land). */
export interface SubresourceDef {
  name: string
  kind: string
  group?: string
  version?: string
  verbs: string[]
}

const subresourcesOf = (def: ResourceDef): SubresourceDef[] =>
  (def as ResourceDef & { subresources?: SubresourceDef[] }).subresources ?? []

/** The group-versions we serve, in table order: core first, then each named group. */
export interface GroupVersion {
  group: string
  version: string
}
function groupVersions(): GroupVersion[] {
  const seen = new Map<string, GroupVersion>()
  for (const r of kinds.all())
    if (!seen.has(apiVersionOf(r))) seen.set(apiVersionOf(r), { group: r.group, version: r.version })
  return [...seen.values()]
}
/** The named API groups (everything but core), each with its versions. */
const namedGroups = (): { name: string; versions: string[] }[] => {
  const groups = new Map<string, string[]>()
  for (const gv of groupVersions()) if (gv.group) groups.set(gv.group, [...(groups.get(gv.group) ?? []), gv.version])
  return [...groups].map(([name, versions]) => ({ name, versions }))
}

const resourcesOf = (gv: GroupVersion) => kinds.all().filter((r) => r.group === gv.group && r.version === gv.version)

function apiResourceList(gv: GroupVersion = { group: '', version: 'v1' }) {
  const resources: unknown[] = []
  for (const r of resourcesOf(gv)) {
    const entry: Record<string, unknown> = {
      name: r.plural,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs].sort(),
    }
    if (r.shortNames.length) entry.shortNames = r.shortNames
    if (r.categories.length) entry.categories = r.categories
    if (r.storageVersionHash) entry.storageVersionHash = r.storageVersionHash
    resources.push(entry)
    for (const s of subresourcesOf(r)) {
      const sub: Record<string, unknown> = {
        name: `${r.plural}/${s.name}`,
        singularName: '',
        namespaced: r.namespaced,
        kind: s.kind,
        verbs: s.verbs,
      }
      if (s.group !== undefined) sub.group = s.group
      if (s.version !== undefined) sub.version = s.version
      resources.push(sub)
    }
  }
  // kube-apiserver writes no apiVersion on the legacy core list (/api/v1), and 'v1' on every named group's.
  return {
    kind: 'APIResourceList',
    ...(gv.group ? { apiVersion: 'v1' } : {}),
    groupVersion: apiVersionOf(gv),
    resources,
  }
}

/** One version of one group in aggregated discovery. */
function aggregatedVersion(gv: GroupVersion) {
  return {
    version: gv.version,
    freshness: 'Current',
    resources: resourcesOf(gv).map((r) => {
      const res: Record<string, unknown> = {
        resource: r.plural,
        responseKind: { group: '', version: '', kind: r.kind },
        scope: r.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: r.singular,
        verbs: [...r.verbs].sort(),
      }
      if (r.shortNames.length) res.shortNames = r.shortNames
      if (r.categories.length) res.categories = r.categories
      const subs = subresourcesOf(r)
      if (subs.length) {
        res.subresources = subs.map((s) => ({
          subresource: s.name,
          responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind },
          verbs: s.verbs,
        }))
      }
      return res
    }),
  }
}

/** /api (core: one nameless group) or /apis (every named group) as an APIGroupDiscoveryList. */
function aggregated(core: boolean) {
  const items = core
    ? [{ metadata: { creationTimestamp: null }, versions: [aggregatedVersion({ group: '', version: 'v1' })] }]
    : namedGroups().map((g) => ({
        metadata: { name: g.name, creationTimestamp: null },
        versions: g.versions.map((v) => aggregatedVersion({ group: g.name, version: v })),
      }))
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items }
}

/** The legacy APIGroup of a named group: its versions, the first preferred. */
function apiGroup(g: { name: string; versions: string[] }) {
  const versions = g.versions.map((version) => ({ groupVersion: `${g.name}/${version}`, version }))
  return { name: g.name, versions, preferredVersion: versions[0] }
}

/**
 * Whether the Accept header asks for the aggregated document (kube's WrappedHandler negotiates with
 * DiscoveryEndpointRestrictions): apidiscovery.k8s.io/v2 only, as 1.33 removed v2beta1; anything else is answered
 * by the legacy document, negotiated as every answer is.
 */
function wantsAggregated(c: Context): boolean {
  const options = negotiateMediaType(c.req.header('accept') ?? '', DISCOVERY_ENDPOINT)
  if (options === null || !isAggregatedDiscovery(options.convert)) return false
  negotiate(c, DISCOVERY_ENDPOINT)
  return true
}

/** The aggregated document, with the GVK in its Content-Type (kubectl parses the body by it). */
const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'

/**
 * The aggregated document as kube's ServeHTTPWithETag writes it: an ETag of the document (a client's discovery cache
 * sends it back in If-None-Match and gets a 304 while nothing changed), `Vary: Accept` and `Cache-Control: public`.
 */
async function serveAggregated(c: Context, core: boolean): Promise<Response> {
  const document = aggregated(core)
  const tag = JSON.stringify(await discoveryETag(document))
  const headers = { ETag: tag, Vary: 'Accept', 'Cache-Control': 'public' }
  if (c.req.header('if-none-match') === tag) return new Response(null, { status: 304, headers })
  const res = json(c, document, 200, AGGREGATED_CONTENT_TYPE)
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value)
  return res
}

export function serveApi(c: Context) {
  if (wantsAggregated(c)) return serveAggregated(c, true)
  const host = c.req.header('host') ?? '127.0.0.1:8787'
  return json(c, {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }],
  })
}

export function serveApis(c: Context) {
  if (wantsAggregated(c)) return serveAggregated(c, false)
  return json(c, { kind: 'APIGroupList', apiVersion: 'v1', groups: namedGroups().map(apiGroup) })
}

export const serveApiV1 = (c: Context) => json(c, apiResourceList())

/** GET /apis/<group> (APIGroup) and /apis/<group>/<version> (APIResourceList) for every named group we serve. */
/** /apis/<group> and /apis/<group>/<version>, answered from the kind table as it is now (404 when not served). */
export function registerGroupDiscovery(app: { get(path: string, handler: (c: Context) => Response): unknown }) {
  app.get('/apis/:group', (c) => {
    const g = namedGroups().find((x) => x.name === c.req.param('group'))
    return g ? json(c, { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) }) : json(c, statuses.pathNotFound(), 404)
  })
  app.get('/apis/:group/:version', (c) => {
    const gv = { group: c.req.param('group')!, version: c.req.param('version')! }
    return resourcesOf(gv).length > 0 ? json(c, apiResourceList(gv)) : json(c, statuses.pathNotFound(), 404)
  })
}
