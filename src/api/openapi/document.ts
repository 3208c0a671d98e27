// The OpenAPI v3 documents, one per group-version (`api/v1`, `apis/<group>/<version>`), assembled from the resource
// table and the zod schemas, serialized once per isolate and named by a hash of their text.
import { kinds } from '../../registry/resources'
import type { ResourceDef } from '../../registry/resource'
import { DeleteOptions, ObjectMeta } from '../../schema/meta'
import { VERSION_INFO } from '../version'
import { ComponentBuilder, type Json } from './components'
import { named, packageForGroup, schemaNamed } from './names'
import { documentKey, pathsFor, type OperationRefs } from './operations'
import { swaggerV2 } from './swagger-v2'
import { listSchemaOf, Patch, Status, WatchEvent } from './wire-types'

/** The component name of a row's kind: its schema's own name, else `<package of its group>.<Kind>`. */
export function kindComponentName(def: ResourceDef): string {
  return def.openapi?.name ?? named(def.schema)?.name ?? `${packageForGroup(def.group, def.version)}.${def.kind}`
}

const packageOf = (componentName: string) => componentName.slice(0, componentName.lastIndexOf('.'))

/** The v3 document of one group-version, built from every table row in it. */
export function buildDocument(rows: ResourceDef[]): Json {
  // A kind whose schema module names.ts does not list is still named (from the table), so its List can refer to it.
  const aliases = new Map(rows.filter((def) => !named(def.schema)).map((def) => [def.schema, kindComponentName(def)]))
  const components = new ComponentBuilder(aliases)
  const gvkOf = (group: string, version: string, kind: string) => ({
    'x-kubernetes-group-version-kind': [{ group, kind, version }],
  })
  const paths: Record<string, Json> = {}
  for (const def of rows) {
    const kindName = kindComponentName(def)
    // The table asserts the GVK, so every served kind carries it even if its zod schema forgot the .meta().
    // A custom resource publishes its CRD's schema (which refers to ObjectMeta), not one made from zod.
    if (def.openapi) components.property(ObjectMeta, false)
    const kind = def.openapi
      ? components.raw(kindName, def.openapi.schema, gvkOf(def.group, def.version, def.kind))
      : components.component(kindName, def.schema, gvkOf(def.group, def.version, def.kind))
    const refs: OperationRefs = {
      kind,
      // Create-only kinds (the reviews) have no List upstream.
      list: def.verbs.includes('list')
        ? components.component(`${packageOf(kindName)}.${def.listKind}`, listSchemaOf(def))
        : {},
      status: components.property(Status, false),
      deleteOptions: components.property(DeleteOptions, false),
      watchEvent: components.property(WatchEvent, false),
      patch: components.property(Patch, false),
      subresource: (sub) => {
        const [group, version] = [sub.group ?? def.group, sub.version ?? def.version]
        if (sub.kind === def.kind && group === def.group) return kind
        const name = `${packageForGroup(group, version)}.${sub.kind}`
        const schema = schemaNamed(name)
        return schema ? components.component(name, schema, gvkOf(group, version, sub.kind)) : undefined
      },
    }
    Object.assign(paths, pathsFor(def, refs))
  }
  const schemas = Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b)))
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: VERSION_INFO.gitVersion },
    paths,
    components: { schemas },
  }
}

interface ServedDocument {
  text: string
  /** Upper-case hex, as kube-apiserver spells it; part of the index's serverRelativeURL. */
  hash: string
}

/** Rows grouped by document key, in table order. */
function rowsByDocument(): Map<string, ResourceDef[]> {
  const byKey = new Map<string, ResourceDef[]>()
  for (const def of kinds.all()) {
    const key = documentKey(def)
    byKey.set(key, [...(byKey.get(key) ?? []), def])
  }
  return byKey
}

/** The hash naming a document in its URL: SHA-512 of its text, so it changes exactly when the document does. */
export async function hashDocument(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-512', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()
}

// Every document is built and hashed once per version of the kind table (a CustomResourceDefinition changes it).
let served: Promise<Map<string, ServedDocument>> | null = null
let servedRevision = -1

export function servedDocuments(): Promise<Map<string, ServedDocument>> {
  if (servedRevision !== kinds.revision) {
    served = null
    servedV2 = null
    servedRevision = kinds.revision
  }
  served ??= (async () => {
    const out = new Map<string, ServedDocument>()
    for (const [key, rows] of rowsByDocument()) {
      const text = JSON.stringify(buildDocument(rows))
      out.set(key, { text, hash: await hashDocument(text) })
    }
    return out
  })()
  return served
}

let servedV2: Promise<string> | null = null

/** The Swagger 2.0 JSON text of all documents together (for /openapi/v2 asked for JSON). */
export function servedSwaggerV2(): Promise<string> {
  servedV2 ??= servedDocuments().then((docs) =>
    JSON.stringify(swaggerV2([...docs.values()].map((d) => JSON.parse(d.text)))),
  )
  return servedV2
}
