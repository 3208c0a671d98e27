// The v3 documents converted to one Swagger 2.0 document, for clients that ask /openapi/v2 for JSON (generators,
// linters). kubectl asks for protobuf and gets the empty document instead (see ../openapi.ts).
import type { Json } from './components'

const V3_REF = '#/components/schemas/'

/** Swagger 2.0 has no oneOf: kube writes IntOrString and Quantity as formatted strings there. */
const V2_SCALARS: Record<string, Json> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string', format: 'quantity' },
}

/** Rewrites refs to #/definitions/ and a lone `allOf: [{$ref}]` to a plain $ref with its siblings, as kube's v2 has it. */
function schemaV2(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(schemaV2)
  if (!s || typeof s !== 'object') return s
  const out: Json = {}
  for (const [k, v] of Object.entries(s as Json)) {
    // A property named $ref (JSONSchemaProps has one) is a field, not a reference.
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace(V3_REF, '#/definitions/')
    else if (k === 'allOf' && Array.isArray(v) && v.length === 1 && (v[0] as Json).$ref)
      Object.assign(out, schemaV2(v[0]))
    else out[k] = schemaV2(v)
  }
  return out
}

function parameterV2(p: Json): Json {
  const { schema, ...rest } = p
  return { ...rest, ...(schema as Json) }
}

function operationV2(op: Json): Json {
  const { requestBody, responses, parameters, ...rest } = op as Json & {
    requestBody?: Json
    responses: Record<string, Json>
    parameters?: Json[]
  }
  const params = (parameters ?? []).map(parameterV2)
  const consumes = requestBody ? Object.keys(requestBody.content as Json) : undefined
  if (requestBody) {
    const schema = Object.values(requestBody.content as Record<string, Json>)[0]!.schema
    params.push({ name: 'body', in: 'body', required: Boolean(requestBody.required), schema: schemaV2(schema) })
  }
  const produces = new Set<string>()
  const responsesV2: Record<string, Json> = {}
  for (const [code, r] of Object.entries(responses)) {
    const content = (r.content ?? {}) as Record<string, Json>
    Object.keys(content).forEach((t) => produces.add(t))
    const first = Object.values(content)[0]
    responsesV2[code] = { description: r.description, ...(first ? { schema: schemaV2(first.schema) } : {}) }
  }
  return {
    ...rest,
    ...(consumes ? { consumes } : {}),
    ...(produces.size ? { produces: [...produces] } : {}),
    parameters: params,
    responses: responsesV2,
    schemes: ['https'],
  }
}

/** One Swagger 2.0 document with every group-version's paths and definitions. */
export function swaggerV2(documents: Json[]): Json {
  const paths: Record<string, Json> = {}
  const definitions: Record<string, Json> = {}
  for (const doc of documents) {
    for (const [name, schema] of Object.entries((doc.components as Json).schemas as Record<string, Json>)) {
      const converted = schemaV2(schema) as Json
      if (V2_SCALARS[name]) {
        delete converted.oneOf
        Object.assign(converted, V2_SCALARS[name])
      }
      definitions[name] = converted
    }
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const out: Json = {}
      for (const [method, op] of Object.entries(item)) {
        out[method] = method === 'parameters' ? (op as Json[]).map(parameterV2) : operationV2(op as Json)
      }
      paths[path] = out
    }
  }
  const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)))
  return { swagger: '2.0', info: (documents[0]?.info as Json) ?? { title: 'Kubernetes' }, paths, definitions: sorted }
}
