// The OpenAPI schema a custom resource's version publishes (apiextensions pkg/controller/openapi/builder:
// buildKubeNative): the CRD's schema with apiVersion, kind and metadata (ObjectMeta) as every kind has them, the
// same for embedded resources, under kube's reversed-group name (com.example.stable.v1.CronTab).
import type { JSONSchemaProps } from '../crd/json-schema'
import { isObject } from '../crd/json-schema'

const META_REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'
const METADATA = {
  description:
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  allOf: [{ $ref: META_REF }],
}
const API_VERSION = {
  description:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
}
const KIND = {
  description:
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
}

/** util.ToRESTFriendlyName of group/version/kind: the group's labels reversed, then version and kind. */
export const customComponentName = (group: string, version: string, kind: string) =>
  `${group.split('.').reverse().join('.')}.${version}.${kind}`

type Json = Record<string, unknown>

function embedded(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(embedded)
  if (!isObject(s)) return s
  const out: Json = {}
  for (const [k, v] of Object.entries(s)) out[k] = k === 'default' || k === 'example' || k === 'enum' ? v : embedded(v)
  if (out['x-kubernetes-embedded-resource'] === true && out['x-kubernetes-preserve-unknown-fields'] !== true) {
    const props = (out.properties ?? {}) as Json
    out.properties = { ...props, apiVersion: API_VERSION, kind: KIND, metadata: METADATA }
    const required = new Set((out.required as string[] | undefined) ?? [])
    out.required = [
      ...((out.required as string[] | undefined) ?? []),
      ...['kind', 'apiVersion'].filter((r) => !required.has(r)),
    ]
  }
  return out
}

/** The component schema of a version, or a bare object when the version has no schema. */
export function customOpenApi(schema: JSONSchemaProps | undefined): Json {
  if (!schema) return { type: 'object' }
  const out = embedded(structuredClone(schema)) as Json
  out.properties = { ...((out.properties ?? {}) as Json), metadata: METADATA, apiVersion: API_VERSION, kind: KIND }
  return out
}
