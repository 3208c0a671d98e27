// The server-side Table of a custom resource (apiextensions pkg/registry/customresource/tableconvertor): NAME, then
// the version's additionalPrinterColumns (AGE from creationTimestamp when it declares none), each cell read with
// its JSONPath and typed as its column says; dates become ages as kubectl prints them.
import type { ColumnDefinition } from '../crd/json-schema'
import { goV } from '../decoding/go-format'
import { humanDuration } from '../human-duration'
import type { TableConvertor } from '../strategy'
import { findJsonPath, parseJsonPath } from './simple-jsonpath'

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'
const CREATION_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'

/** serveDefaultColumnsIfEmpty. */
export const columnsOrAge = (columns: ColumnDefinition[] | undefined): ColumnDefinition[] =>
  columns?.length
    ? columns
    : [{ name: 'Age', type: 'date', description: CREATION_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' }]

/** cellForJSONValue, and the JSONPath printer for string columns. */
function cell(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : goV(value, 'preserveInts')
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null
    case 'number':
      return typeof value === 'number' ? value : null
    case 'boolean':
      return typeof value === 'boolean' ? value : null
    case 'date': {
      if (typeof value !== 'string') return null
      const t = Date.parse(value)
      if (Number.isNaN(t)) return '<invalid>'
      return humanDuration(now.getTime() - t)
    }
    default:
      return null
  }
}

type Obj = { metadata: { name?: string } }

export function customTable(definitions: ColumnDefinition[]): TableConvertor<Obj> {
  const parsed = definitions.map((c) => parseJsonPath(c.jsonPath))
  // An unparsable column makes kube fall back to its default printing: the name alone.
  const usable = parsed.every((p) => p !== null)
  const columns = [
    { name: 'Name', type: 'string' as const, format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    ...(usable
      ? definitions.map((c) => ({
          name: c.name,
          type: c.type as 'string',
          format: c.format ?? '',
          description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
          priority: c.priority ?? 0,
        }))
      : []),
  ]
  return {
    columns,
    cells(obj, now) {
      const cells: unknown[] = [obj.metadata.name ?? '']
      if (!usable) return cells
      definitions.forEach((c, i) => {
        const found = findJsonPath(obj, parsed[i]!)
        cells.push(found.length === 0 ? null : cell(c.type, found[0], now))
      })
      return cells
    },
  }
}
