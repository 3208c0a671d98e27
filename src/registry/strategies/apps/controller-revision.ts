// The apps/v1 ControllerRevision strategy: kube's ValidateControllerRevision (data required, revision not negative)
// and its update rule (data immutable, the revision number may move), names as DNS subdomains, and
// `kubectl get controllerrevisions`'s table (the owning controller as kind.group/name).
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import type { ControllerRevision } from '../../../schema/controller-revision'
import type { ObjectMeta } from '../../../schema/meta'
import { deepEqual } from '../../deep-equal'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { nameIsDNSSubdomain } from '../../validation/names'
import { FIELD_IMMUTABLE_ERROR_MSG, validateNonnegativeField } from '../../validation/object-meta'

type ControllerRevisionObject = Omit<ControllerRevision, 'metadata'> & { metadata: ObjectMeta }

/** %#v of the *runtime.Unknown kube holds the data in, as an Invalid error prints it (dereferenced). */
function goUnknown(data: unknown): string {
  const bytes = [...new TextEncoder().encode(JSON.stringify(data))].map((b) => `0x${b.toString(16)}`)
  return `runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]uint8{${bytes.join(', ')}}, ContentEncoding:"", ContentType:""}`
}

function validateRevision(cr: ControllerRevisionObject): FieldError[] {
  const errs: FieldError[] = []
  if (cr.data === undefined || cr.data === null) errs.push(fieldError.required('data', 'data is mandatory'))
  errs.push(...validateNonnegativeField(cr.revision ?? 0, new FieldPath('revision')))
  return errs
}

/** metav1.GetControllerOf as printers.go names it: `<kind>.<group>/<name>`, lower case, or <none>. */
function controllerName(cr: ControllerRevisionObject): string {
  const ref = cr.metadata.ownerReferences?.find((r) => r.controller)
  if (!ref) return '<none>'
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : ''
  return `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`
}

export const controllerRevisionStrategy: Strategy<ControllerRevisionObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(cr) {
    cr.revision ??= 0
  },
  prepareForCreate: () => undefined,
  validate: validateRevision,
  prepareForUpdate: () => undefined,
  validateUpdate(cr, old) {
    const errs = validateRevision(cr)
    if (!deepEqual(cr.data, old.data)) {
      errs.push({
        type: 'FieldValueInvalid',
        field: 'data',
        message: `Invalid value: ${goUnknown(cr.data)}: ${FIELD_IMMUTABLE_ERROR_MSG}`,
      })
    }
    return errs
  },
  selectableFields: (cr) => ({
    'metadata.name': cr.metadata.name ?? '',
    'metadata.namespace': cr.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      {
        name: 'Name',
        type: 'string',
        format: 'name',
        description: NAME_DOC,
        priority: 0,
      },
      { name: 'Controller', type: 'string', format: '', description: 'Controller of the object', priority: 0 },
      {
        name: 'Revision',
        type: 'string',
        format: '',
        description: 'revision indicates the revision of the state represented by Data.',
        priority: 0,
      },
      {
        name: 'Age',
        type: 'string',
        format: '',
        description: CREATION_DOC,
        priority: 0,
      },
    ],
    cells: (cr, now) => [
      cr.metadata.name,
      controllerName(cr),
      cr.revision ?? 0,
      age(cr.metadata.creationTimestamp, now),
    ],
  },
}
