// Metadata-only answers for `Accept: application/json;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1` (what
// client-go's metadata client, and so garbage collectors and operators, ask for): kube's asPartialObjectMetadata and
// asPartialObjectMetadataList (handlers/response.go), with their 406s for an object asked for as a list or back.
import type { ResourceDef } from '../registry/resource'
import { StatusError, statuses } from '../registry/status'
import type { KubeObject } from '../schema/meta'
import type { Conversion } from './negotiation'

/** The object's metadata under PartialObjectMetadata of the clause's meta.k8s.io version. */
export const partialObject = (obj: KubeObject, version: string) => ({
  kind: 'PartialObjectMetadata',
  apiVersion: `meta.k8s.io/${version}`,
  metadata: obj.metadata,
})

/** Go's %T of what storage hands the handler: the internal type (*core.Pod), unstructured for custom resources. */
function goType(def: ResourceDef, list: boolean): string {
  if (def.unstructured) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured'
  const pkg = def.group === '' ? 'core' : def.group.split('.')[0]
  return `*${pkg}.${list ? def.listKind : def.kind}`
}

/** handlers' errNotAcceptable: a 406 with the message alone. */
const notAcceptable = (message: string) => new StatusError({ ...statuses.notAcceptable([]), message })

/** The answer for one object: itself, or its PartialObjectMetadata (a list of it is not what it is: 406). */
export function partialOfObject(def: ResourceDef, obj: KubeObject, convert: Conversion | undefined): unknown {
  if (convert?.kind === 'PartialObjectMetadata') return partialObject(obj, convert.version)
  if (convert?.kind === 'PartialObjectMetadataList')
    throw notAcceptable(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(def, false)})`,
    )
  return obj
}

/** The answer for a list page: itself, or a PartialObjectMetadataList of its items (a single one of it: 406). */
export function partialOfList(
  def: ResourceDef,
  list: { metadata: Record<string, unknown>; items: KubeObject[] },
  convert: Conversion | undefined,
): unknown {
  if (convert?.kind === 'PartialObjectMetadataList')
    return {
      kind: 'PartialObjectMetadataList',
      apiVersion: `meta.k8s.io/${convert.version}`,
      metadata: list.metadata,
      items: list.items.map((o) => partialObject(o, convert.version)),
    }
  if (convert?.kind === 'PartialObjectMetadata')
    throw notAcceptable(
      `you requested PartialObjectMetadata, but the requested object is a list (${goType(def, true)})`,
    )
  return undefined
}
