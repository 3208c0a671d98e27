// zod schemas -> OpenAPI v3 component schemas, shaped like kube-openapi's: named types as `$ref`s (wrapped in
// `allOf` when the field adds its own description), `.describe()` as descriptions, `.meta()` x-kubernetes-* list and
// map metadata on the property that declares it, `required` from non-optional fields, int32/int64 formats, enums.
import { z } from 'zod'
import { named, scalarBody } from './names'

type Schema = z.ZodType
export type Json = Record<string, unknown>

interface Def {
  type: string
  innerType?: Schema
  in?: Schema
  getter?: () => Schema
  shape?: Record<string, Schema>
  catchall?: Schema
  element?: Schema
  valueType?: Schema
  options?: Schema[]
  left?: Schema
  right?: Schema
  items?: Schema[]
  entries?: Record<string, string | number>
  values?: unknown[]
}
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def
const metaOf = (s: Schema) => (z.globalRegistry.get(s) ?? {}) as Json

export const REF_PREFIX = '#/components/schemas/'

/** Wrappers that change neither the JSON shape nor (except optionality) the OpenAPI one. */
const OPTIONAL_WRAPPERS = new Set(['optional', 'default', 'prefault', 'catch'])
const TRANSPARENT_WRAPPERS = new Set(['nullable', 'readonly', 'nonoptional', 'success'])

/** A field's schema with its wrappers peeled: the type underneath, whether it may be left out, and its metadata. */
interface Peeled {
  schema: Schema
  type?: { schema: Schema; name: string }
  optional: boolean
  /** description and x-kubernetes-* from the field's wrappers (outermost wins), minus what the named type says. */
  meta: Json
}

type Namer = (s: Schema) => { schema: Schema; name: string } | undefined

function peel(field: Schema, nameOf: Namer = named): Peeled {
  let meta: Json = {}
  let optional = false
  let cur = field
  for (let depth = 0; depth < 64; depth++) {
    const type = nameOf(cur)
    if (type) {
      // A clone such as `Foo.describe('why')` inherits Foo's metadata: keep only what the clone changed.
      const base = metaOf(type.schema)
      const own = Object.entries(metaOf(cur)).filter(([k, v]) => JSON.stringify(base[k]) !== JSON.stringify(v))
      return { schema: cur, type, optional, meta: { ...Object.fromEntries(own), ...meta } }
    }
    meta = { ...metaOf(cur), ...meta }
    const d = defOf(cur)
    if (OPTIONAL_WRAPPERS.has(d.type) && d.innerType) {
      optional = true
      cur = d.innerType
    } else if (TRANSPARENT_WRAPPERS.has(d.type) && d.innerType) cur = d.innerType
    else if (d.type === 'lazy' && d.getter) cur = d.getter()
    else if (d.type === 'pipe' && d.in)
      cur = d.in // clients send the input side of a transform
    else break
  }
  return { schema: cur, optional, meta }
}

/** The metadata that belongs in OpenAPI: the description and kube's extensions (never zod-only keys such as id). */
function annotations(meta: Json): { description?: string; extensions: Json } {
  const extensions = Object.fromEntries(Object.entries(meta).filter(([k]) => k.startsWith('x-kubernetes-')))
  const description = typeof meta.description === 'string' && meta.description ? meta.description : undefined
  return { description, extensions }
}

/** description first and extensions last, as kube-openapi orders a schema's keys (only for readability). */
const assemble = (description: string | undefined, body: Json, extensions: Json): Json => ({
  ...(description ? { description } : {}),
  ...body,
  ...extensions,
})

function numberSchema(s: Schema): Json {
  const n = s as unknown as { format?: string | null; minValue?: number | null; maxValue?: number | null }
  const integer = n.format === 'safeint' || n.format === 'int32' || n.format === 'uint32' || n.format === 'int64'
  if (!integer) return { type: 'number', format: 'double' }
  const int32 = (n.minValue ?? -Infinity) >= -2147483648 && (n.maxValue ?? Infinity) <= 2147483647
  return { type: 'integer', format: int32 ? 'int32' : 'int64' }
}

/** Builds component schemas on demand: each named type the walk reaches is emitted once, under its kube name. */
export class ComponentBuilder {
  readonly schemas: Record<string, Json> = {}
  private readonly nameOf: Namer

  /** `aliases` names schemas the module table does not (a kind whose schema module is not listed in names.ts). */
  constructor(aliases: Map<Schema, string> = new Map()) {
    this.nameOf = (s) => {
      const alias = aliases.get(s)
      return alias ? { schema: s, name: alias } : named(s)
    }
  }

  /**
   * Emits a named type (if not yet emitted) and returns its $ref. `extra` adds component-level keys such as the
   * x-kubernetes-group-version-kind the resource table asserts for a kind.
   */
  component(name: string, schema: Schema, extra: Json = {}): Json {
    if (!this.schemas[name]) {
      this.schemas[name] = {} // placeholder: a recursive type refers to itself instead of looping
      const { description, extensions } = annotations(metaOf(schema))
      const body = scalarBody(name) ?? this.inline(peel(schema, () => undefined).schema)
      this.schemas[name] = assemble(description, body, { ...extensions, ...extra })
    } else if (Object.keys(extra).length) Object.assign(this.schemas[name]!, extra)
    return { $ref: REF_PREFIX + name }
  }

  /** Emits a schema that is OpenAPI already (a CustomResourceDefinition's), plus `extra`; returns its $ref. */
  raw(name: string, schema: Json, extra: Json = {}): Json {
    this.schemas[name] ??= { ...schema, ...extra }
    return { $ref: REF_PREFIX + name }
  }

  /** The schema of a property (`field` true), array item or map value. */
  property(schema: Schema, field = true, p: Peeled = peel(schema, this.nameOf)): Json {
    const { description, extensions } = annotations(p.meta)
    if (p.type) {
      const ref = this.component(p.type.name, p.type.schema)
      // explain prints a field's own description; one declared without .describe() borrows its type's.
      const text = description ?? (field ? annotations(metaOf(p.type.schema)).description : undefined)
      return text || Object.keys(extensions).length ? assemble(text, { allOf: [ref] }, extensions) : ref
    }
    return assemble(description, this.inline(p.schema), extensions)
  }

  /** The type itself, without the descriptions and extensions of whoever uses it. */
  private inline(s: Schema): Json {
    const d = defOf(s)
    switch (d.type) {
      case 'string':
        return { type: 'string' }
      case 'number':
        return numberSchema(s)
      case 'bigint':
        return { type: 'integer', format: 'int64' }
      case 'boolean':
        return { type: 'boolean' }
      case 'date':
        return { type: 'string', format: 'date-time' }
      case 'enum': {
        const values = Object.values(d.entries ?? {})
        return { type: values.every((v) => typeof v === 'number') ? 'integer' : 'string', enum: values }
      }
      case 'literal': {
        const values = d.values ?? []
        return {
          type: typeof values[0] === 'number' ? 'number' : typeof values[0] === 'boolean' ? 'boolean' : 'string',
          enum: values,
        }
      }
      case 'object':
        return this.object(d)
      case 'record': {
        // A map of anything (managedFields' fieldsV1, a watch event's object) is just an object, as upstream writes it.
        const valueType = d.valueType ? defOf(peel(d.valueType).schema).type : 'unknown'
        if (valueType === 'unknown' || valueType === 'any') return { type: 'object' }
        return { type: 'object', additionalProperties: this.property(d.valueType!, false) }
      }
      case 'array':
        return { type: 'array', items: this.property(d.element!, false) }
      case 'tuple':
        return { type: 'array', items: {} }
      case 'union':
        return { anyOf: (d.options ?? []).map((o) => this.property(o, false)) }
      case 'intersection':
        return { allOf: [this.property(d.left!, false), this.property(d.right!, false)] }
      default:
        // unknown, any and anything zod cannot express in JSON: accept whatever the client sends.
        return { 'x-kubernetes-preserve-unknown-fields': true }
    }
  }

  private object(d: Def): Json {
    const properties: Json = {}
    const required: string[] = []
    for (const [key, field] of Object.entries(d.shape ?? {})) {
      const p = peel(field, this.nameOf)
      properties[key] = this.property(field, true, p)
      if (!p.optional) required.push(key)
    }
    const out: Json = { type: 'object' }
    if (Object.keys(properties).length) out.properties = properties
    if (required.length) out.required = required
    const rest = d.catchall ? defOf(d.catchall).type : 'never'
    if (rest !== 'never' && rest !== 'unknown' && rest !== 'any')
      out.additionalProperties = this.property(d.catchall!, false)
    return out
  }
}
