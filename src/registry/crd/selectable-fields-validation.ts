// ValidateCustomResourceSelectableFields: each selectable field a path into the schema, outside metadata, to a
// string, boolean or integer, none twice, at most 8.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { validFieldPath } from './field-path'
import type { JSONSchemaProps } from './json-schema'
import { NotStructural, newStructural, type Structural } from './structural'

const MAX_SELECTABLE_FIELDS = 8

export function validateSelectableFields(
  fields: { jsonPath: string }[],
  schema: JSONSchemaProps | undefined,
  parent: FieldPath,
): FieldError[] {
  const at = parent.child('selectableFields')
  let structural: Structural | undefined
  const errs: FieldError[] = []
  try {
    structural = schema ? newStructural(schema) : undefined
  } catch (e) {
    if (!(e instanceof NotStructural)) throw e
    errs.push(fieldError.invalid(parent.child('schema.openAPIV3Schema').path, '', e.message))
  }
  const unique = new Set<string>()
  fields.forEach((f, i) => {
    const field = at.index(i).child('jsonPath').path
    if (!f.jsonPath) {
      errs.push(fieldError.required(field))
      return
    }
    const found = structural
      ? validFieldPath(f.jsonPath, structural, false)
      : { error: 'does not refer to a valid field' }
    if ('error' in found) {
      errs.push(fieldError.invalid(field, f.jsonPath, `is an invalid path: ${found.error}`))
      return
    }
    if (found.root === 'metadata')
      errs.push(fieldError.invalid(field, f.jsonPath, 'must not point to fields in metadata'))
    if (!['string', 'boolean', 'integer'].includes(found.schema.type ?? '')) {
      errs.push(
        fieldError.invalid(
          field,
          f.jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      )
    }
    if (unique.has(found.path.path)) errs.push(fieldError.duplicate(field, f.jsonPath))
    else unique.add(found.path.path)
  })
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(fieldError.tooMany(at.path, unique.size, MAX_SELECTABLE_FIELDS))
  return errs
}
