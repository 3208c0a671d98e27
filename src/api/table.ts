// Server-side printing: Table responses for `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (negotiated in
// negotiation.ts; kube writes them as plain application/json).
import type { KubeObject } from '../schema/meta'
import type { TableConvertor } from '../registry/strategy'
import { StatusError, statuses } from '../registry/status'

type IncludeObject = 'None' | 'Metadata' | 'Object'

/**
 * TableOptions as optionsForTransform reads them from the query (handlers/response.go): includeObject, validated by
 * ValidateTableOptions, a 400 in kube's words.
 */
export function tableOptions(v: string | undefined): IncludeObject {
  if (v === undefined || v === '' || v === 'Metadata') return 'Metadata'
  if (v === 'None' || v === 'Object') return v
  throw new StatusError(
    statuses.badRequest(
      `Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`,
    ),
  )
}

function rowObject(obj: KubeObject, include: IncludeObject, version: string) {
  if (include === 'None') return undefined
  if (include === 'Object') return obj
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata }
}

interface TableMeta {
  resourceVersion?: string
  continue?: string
  remainingItemCount?: number
}

/**
 * A Table of objects in meta.k8s.io `version` (v1 or v1beta1, as the Accept clause named it); headers=false leaves
 * columnDefinitions null (every watch event after the first).
 */
export function toTable(
  def: { kind: string; strategy: { table: TableConvertor<KubeObject> } },
  items: KubeObject[],
  meta: TableMeta,
  include: IncludeObject,
  version: string,
  now = new Date(),
  headers = true,
) {
  const t = def.strategy.table
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: meta,
    columnDefinitions: headers ? t.columns : null,
    rows: items.map((obj) => {
      const row: Record<string, unknown> = { cells: t.cells(obj, now) }
      const phase = (obj.status as { phase?: string } | undefined)?.phase
      if (def.kind === 'Pod' && (phase === 'Succeeded' || phase === 'Failed')) {
        row.conditions = [{ type: 'Completed', status: 'True' }]
      }
      const o = rowObject(obj, include, version)
      if (o) row.object = o
      return row
    }),
  }
}
