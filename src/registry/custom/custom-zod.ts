// A custom resource's structure as a zod schema, for the parts of the server that walk zod schemas (server-side
// apply's field sets and list merging, managedFields, strategic-merge lookups, typed apply's shape checks): objects,
// maps, lists with their x-kubernetes-list-type/-map-keys/-map-type, metadata as ObjectMeta. Scalars are left open:
// their types are the schema validator's business (a 422), not a decoding error.
import { z } from 'zod'
import { ObjectMeta } from '../../schema/meta'
import type { Structural } from '../crd/structural'

type Schema = z.ZodType

function listMeta(s: Structural): Record<string, unknown> {
  const meta: Record<string, unknown> = {}
  if (s.listType) meta['x-kubernetes-list-type'] = s.listType
  if (s.listMapKeys?.length) meta['x-kubernetes-list-map-keys'] = s.listMapKeys
  if (s.mapType) meta['x-kubernetes-map-type'] = s.mapType
  if (s.default !== undefined) meta.default = s.default
  if (s.description) meta.description = s.description
  return meta
}

function node(s: Structural | undefined, depth: number): Schema {
  // Schemas nest at most as deep as objects may (decode refuses bodies past 100 levels).
  if (!s || depth > 100) return z.unknown()
  let out: Schema
  if (s.type === 'array') out = z.array(node(s.items, depth + 1))
  else if (s.type === 'object' || s.properties || s.additionalProperties) {
    if (s.embeddedResource || (s.properties && Object.keys(s.properties).length > 0)) {
      const shape: Record<string, Schema> = {}
      for (const [k, v] of Object.entries(s.properties ?? {}))
        shape[k] = (s.embeddedResource && k === 'metadata' ? ObjectMeta : node(v, depth + 1)).optional()
      if (s.embeddedResource) {
        shape.apiVersion ??= z.string().optional()
        shape.kind ??= z.string().optional()
        shape.metadata ??= ObjectMeta.optional()
      }
      out = s.preserveUnknownFields ? z.looseObject(shape) : z.strictObject(shape)
    } else if (s.additionalProperties) out = z.record(z.string(), node(s.additionalProperties.structural, depth + 1))
    else out = z.record(z.string(), z.unknown())
  } else out = z.unknown()
  const meta = listMeta(s)
  return Object.keys(meta).length ? out.meta(meta) : out
}

/** The zod schema of a custom resource whose version has `s` (null: not structural, all open). */
export function customZod(s: Structural | null): Schema {
  const root = node(
    s ? { ...s, embeddedResource: true } : { type: 'object', embeddedResource: true, preserveUnknownFields: true },
    0,
  )
  return root
}
