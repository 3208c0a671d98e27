// rest.NewDefaultTableConvertor: the Table kube serves for kinds that register no printer (NAME, CREATED AT).
import { CREATION_DOC, NAME_DOC } from './table-column-docs'
import type { ObjectMeta } from '../schema/meta'
import type { TableConvertor } from './strategy'

export function defaultTable<T extends { metadata: ObjectMeta }>(): TableConvertor<T> {
  return {
    columns: [
      {
        name: 'Name',
        type: 'string',
        format: 'name',
        description: NAME_DOC,
        priority: 0,
      },
      {
        name: 'Created At',
        type: 'date',
        format: '',
        description: CREATION_DOC,
        priority: 0,
      },
    ],
    cells: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? '0001-01-01T00:00:00Z'],
  }
}
