// Discovery, generated from the resource table: /api, /apis, /api/v1 (legacy) and aggregated discovery (v2, v2beta1).
import type { Context } from 'hono'
import { RESOURCES } from '../registry/resources'
import type { ResourceDef } from '../registry/resource'
import { json } from './respond'

/** Subresources a kind serves, with their verbs and response kind (filled in as features land). */
export interface SubresourceDef {
  name: string
  kind: string
  group?: string
  version?: string
  verbs: string[]
}

const subresourcesOf = (def: ResourceDef): SubresourceDef[] =>
  ((def as ResourceDef & { subresources?: SubresourceDef[] }).subresources ?? [])

const coreResources = () => RESOURCES.filter((r) => r.group === '' && r.version === 'v1')

export function apiResourceList() {
  const resources: unknown[] = []
  for (const r of coreResources()) {
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
      const sub: Record<string, unknown> = { name: `${r.plural}/${s.name}`, singularName: '', namespaced: r.namespaced, kind: s.kind, verbs: s.verbs }
      if (s.group !== undefined) sub.group = s.group
      if (s.version !== undefined) sub.version = s.version
      resources.push(sub)
    }
  }
  return { kind: 'APIResourceList', groupVersion: 'v1', resources }
}

function aggregated(version: 'v2' | 'v2beta1', core: boolean) {
  const items = core
    ? [
        {
          metadata: { creationTimestamp: null },
          versions: [
            {
              version: 'v1',
              freshness: 'Current',
              resources: coreResources().map((r) => {
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
            },
          ],
        },
      ]
    : []
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items }
}

/** Which aggregated discovery version (if any) the Accept header asks for, in the client's order of preference. */
function aggregatedVersion(accept: string | undefined): 'v2' | 'v2beta1' | null {
  for (const part of (accept ?? '').split(',')) {
    const params = part.split(';').map((s) => s.trim())
    if (!params.includes('g=apidiscovery.k8s.io') || !params.includes('as=APIGroupDiscoveryList')) continue
    if (params.includes('v=v2')) return 'v2'
    if (params.includes('v=v2beta1')) return 'v2beta1'
  }
  return null
}

export function serveApi(c: Context) {
  const v = aggregatedVersion(c.req.header('accept'))
  // kubectl parses the body by this exact Content-Type; plain application/json would be read as APIVersions.
  if (v) return json(c, aggregated(v, true), 200, `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`)
  const host = c.req.header('host') ?? '127.0.0.1:8787'
  return json(c, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }] })
}

export function serveApis(c: Context) {
  const v = aggregatedVersion(c.req.header('accept'))
  if (v) return json(c, aggregated(v, false), 200, `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`)
  return json(c, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] })
}

export const serveApiV1 = (c: Context) => json(c, apiResourceList())
