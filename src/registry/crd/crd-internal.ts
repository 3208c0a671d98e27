// A v1 CRD spec as kube-apiserver validates it: converted to the internal apiextensions type, where per-version
// schemas, subresources, printer columns and selectable fields that are identical in every version move to the
// top level (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec). That is why
// kube reports a single-version CRD's schema errors under `spec.validation.openAPIV3Schema`, and so do we.
import { deepEqual } from '../deep-equal'
import type { ColumnDefinition, Crd, CrdVersion, JSONSchemaProps, Subresources } from './json-schema'

interface InternalVersion extends Omit<CrdVersion, 'schema'> {
  schema?: { openAPIV3Schema?: JSONSchemaProps }
}

export interface InternalSpec {
  group: string
  names: Crd['spec']['names']
  scope: string
  /** versions[0].name, as the internal type keeps it. */
  version: string
  versions: InternalVersion[]
  validation?: { openAPIV3Schema?: JSONSchemaProps }
  subresources?: Subresources
  additionalPrinterColumns?: ColumnDefinition[]
  selectableFields?: { jsonPath: string }[]
  conversion?: Crd['spec']['conversion']
  preserveUnknownFields?: boolean
}

/** The internal spec of a v1 spec. Absent and empty per-version lists compare as Go's DeepEqual compares them. */
export function internalSpec(spec: Crd['spec']): InternalSpec {
  const versions: InternalVersion[] = (spec.versions ?? []).map((v) => ({ ...v }))
  const out: InternalSpec = {
    group: spec.group,
    names: spec.names,
    scope: spec.scope,
    version: versions[0]?.name ?? '',
    versions,
    conversion: spec.conversion,
    preserveUnknownFields: spec.preserveUnknownFields,
  }
  if (versions.length === 0) return out
  const first = versions[0]!
  const same = (pick: (v: InternalVersion) => unknown) => versions.every((v) => deepEqual(pick(v), pick(first)))
  const subresources = same((v) => v.subresources)
  const schema = same((v) => v.schema)
  const columns = same((v) => v.additionalPrinterColumns)
  const selectable = same((v) => v.selectableFields)
  if (subresources) out.subresources = first.subresources
  if (schema) out.validation = first.schema
  if (columns) out.additionalPrinterColumns = first.additionalPrinterColumns
  if (selectable) out.selectableFields = first.selectableFields
  out.versions = versions.map((v) => {
    const copy = { ...v }
    if (subresources) delete copy.subresources
    if (schema) delete copy.schema
    if (columns) delete copy.additionalPrinterColumns
    if (selectable) delete copy.selectableFields
    return copy
  })
  return out
}

/** The schema a version is validated with (apiextensions.GetSchemaForVersion). */
export function schemaOf(spec: InternalSpec, version: string): JSONSchemaProps | undefined {
  if (spec.validation) return spec.validation.openAPIV3Schema
  return spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema
}

/** The subresources a version serves (getSubresourcesForVersion). */
export function subresourcesOf(spec: InternalSpec, version: string): Subresources | undefined {
  if (!spec.versions.some((v) => v.subresources !== undefined)) return spec.subresources
  return spec.versions.find((v) => v.name === version)?.subresources
}
