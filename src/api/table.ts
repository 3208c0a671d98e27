// Server-side printing: Table responses for `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`.
import type { KubeObject } from '../schema/meta'
import type { ResourceDef } from '../registry/resource'
import { StatusError, statuses } from '../registry/status'

export const TABLE_CONTENT_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io'

/** Whether the Accept header asks for a Table (kubectl's human output does; it lists plain JSON as a fallback). */
export function wantsTable(accept: string | undefined): boolean {
  if (!accept) return false
  return accept.split(',').some((part) => {
    const params = part.split(';').map((s) => s.trim())
    return (
      params.includes('as=Table') &&
      params.includes('g=meta.k8s.io') &&
      (params.includes('v=v1') || params.includes('v=v1beta1'))
    )
  })
}

type IncludeObject = 'None' | 'Metadata' | 'Object'

export function includeObjectOption(v: string | undefined): IncludeObject {
  if (v === undefined || v === '' || v === 'Metadata') return 'Metadata'
  if (v === 'None' || v === 'Object') return v
  throw new StatusError(
    statuses.badRequest(
      `includeObject: Unsupported value: ${JSON.stringify(v)}: supported values: "Metadata", "None", "Object"`,
    ),
  )
}

function rowObject(obj: KubeObject, include: IncludeObject) {
  if (include === 'None') return undefined
  if (include === 'Object') return obj
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata }
}

interface TableMeta {
  resourceVersion?: string
  continue?: string
  remainingItemCount?: number
}

/** A Table of objects; headers=false leaves columnDefinitions null (every watch event after the first). */
export function toTable(
  def: ResourceDef,
  items: KubeObject[],
  meta: TableMeta,
  include: IncludeObject,
  now = new Date(),
  headers = true,
) {
  const t = def.strategy.table
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: headers ? t.columns : null,
    rows: items.map((obj) => {
      const row: Record<string, unknown> = { cells: t.cells(obj, now) }
      const phase = (obj.status as { phase?: string } | undefined)?.phase
      if (def.kind === 'Pod' && (phase === 'Succeeded' || phase === 'Failed')) {
        row.conditions = [{ type: 'Completed', status: 'True' }]
      }
      const o = rowObject(obj, include)
      if (o) row.object = o
      return row
    }),
  }
}
