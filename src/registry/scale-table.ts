// The Table of a /scale answer (Accept: application/json;as=Table;v=v1;g=meta.k8s.io, `kubectl get --subresource
// scale`): a built-in kind's ScaleREST.ConvertToTable hands the Scale to its store's printer, whose handler for
// autoscaling.Scale is printScale (NAME, DESIRED, AVAILABLE, AGE); a custom resource's scale scope converts with the
// columns getScaleColumnsForVersion builds (apiextensions: Desired and Available by JSONPath over the Scale, Age a date).
import { columnsOrAge, customTable } from './custom/printer-columns'
import { age } from './human-duration'
import type { ResourceDef } from './resource'
import type { TableConvertor } from './strategy'
import type { KubeObject } from '../schema/meta'

type ScaleObj = KubeObject & { spec?: { replicas?: number }; status?: { replicas?: number } }

/** apiextensions' scale columns (every scale subresource names both replicas paths); NAME comes first. */
const customScaleTable = customTable([
  { name: 'Desired', type: 'integer', description: 'Number of desired replicas', jsonPath: '.spec.replicas' },
  { name: 'Available', type: 'integer', description: 'Number of actual replicas', jsonPath: '.status.replicas' },
  ...columnsOrAge(undefined),
]) as TableConvertor<KubeObject>

/** ObjectMeta's swagger docs, as the custom table's NAME and default AGE columns carry them. */
const NAME_DOC = customScaleTable.columns[0]!.description
const CREATION_DOC = columnsOrAge(undefined)[0]!.description ?? ''

/** printScale's handler: scaleColumnDefinitions (NAME has no name format here) and one row per Scale. */
const builtinScaleTable: TableConvertor<ScaleObj> = {
  columns: [
    { name: 'Name', type: 'string', format: '', description: NAME_DOC, priority: 0 },
    {
      name: 'Desired',
      type: 'integer',
      format: '',
      description: 'replicas is the desired number of instances for the scaled object.',
      priority: 0,
    },
    {
      name: 'Available',
      type: 'integer',
      format: '',
      description: 'replicas is the actual number of observed instances of the scaled object.',
      priority: 0,
    },
    { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
  ],
  cells: (s, now) => [
    s.metadata.name ?? '',
    s.spec?.replicas ?? 0,
    s.status?.replicas ?? 0,
    age(s.metadata.creationTimestamp, now),
  ],
}

/** The table convertor of `def`'s /scale. */
export const scaleTable = (def: ResourceDef): TableConvertor<KubeObject> =>
  def.unstructured !== undefined ? customScaleTable : (builtinScaleTable as TableConvertor<KubeObject>)
