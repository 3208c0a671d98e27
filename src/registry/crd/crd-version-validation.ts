// One version of a CRD as apiextensions validation.go checks it (validateCustomResourceDefinitionVersion): its
// deprecation warning, schema, subresources (the /scale paths), printer columns and selectable fields. The top-level
// spec's subresources and printer columns are checked with the same functions.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { type InternalSpec, schemaOf } from './crd-internal'
import type { ColumnDefinition, Subresources } from './json-schema'
import { type SchemaCheckOptions, validateSchema } from './schema-validation'
import { validateSelectableFields } from './selectable-fields-validation'

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string']
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password']

/** One entry of spec.versions: deprecation warning, schema, subresources, printer columns, selectable fields. */
export function validateVersion(
  s: InternalSpec,
  v: InternalSpec['versions'][number],
  at: FieldPath,
  statusEnabled: boolean,
  checkers: Omit<SchemaCheckOptions, 'statusEnabled'>,
): FieldError[] {
  const errs: FieldError[] = []
  for (const detail of deprecationWarningErrors(v.deprecated ?? false, v.deprecationWarning))
    errs.push(fieldError.invalid(at.child('deprecationWarning').path, v.deprecationWarning ?? null, detail))
  errs.push(...validateSchema(v.schema?.openAPIV3Schema, at.child('schema'), { statusEnabled, ...checkers }))
  errs.push(...validateSubresources(v.subresources, at.child('subresources')))
  v.additionalPrinterColumns?.forEach((c, i) =>
    errs.push(...validateColumn(c, at.child('additionalPrinterColumns').index(i))),
  )
  if ((v.selectableFields?.length ?? 0) > 0) {
    const schema = schemaOf(s, v.name)
    if (!v.schema?.openAPIV3Schema || !schema) {
      errs.push(
        fieldError.invalid(
          at.child('selectableFields').path,
          '',
          'selectableFields may only be set when version.schema.openAPIV3Schema is not included',
        ),
      )
    } else errs.push(...validateSelectableFields(v.selectableFields!, schema, at))
  }
  return errs
}

function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions']
  if (warning === undefined) return []
  const errs: string[] = []
  if (new TextEncoder().encode(warning).length > 256) errs.push('must be <= 256 characters long')
  if (warning.length === 0) errs.push('must not be an empty string')
  let i = 0
  for (const ch of warning) {
    const cp = ch.codePointAt(0)!
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${i}`)
      break
    }
    i += new TextEncoder().encode(ch).length
  }
  return errs
}

/** One additionalPrinterColumns entry (a version's or the top-level spec's). */
export function validateColumn(c: ColumnDefinition, at: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!c.name) errs.push(fieldError.required(at.child('name').path))
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`
  if (!c.type) errs.push(fieldError.required(at.child('type').path, types))
  else if (!PRINTER_COLUMN_TYPES.includes(c.type)) errs.push(fieldError.invalid(at.child('type').path, c.type, types))
  if (c.format && !COLUMN_FORMATS.includes(c.format))
    errs.push(fieldError.invalid(at.child('format').path, c.format, `must be one of ${COLUMN_FORMATS.join(',')}`))
  if (!c.jsonPath) errs.push(fieldError.required(at.child('JSONPath').path))
  else errs.push(...simpleJsonPath(c.jsonPath, at.child('JSONPath')))
  return errs
}

function simpleJsonPath(s: string, at: FieldPath): FieldError[] {
  if (s.length === 0) return [fieldError.invalid(at.path, s, 'must not be empty')]
  if (s[0] !== '.') return [fieldError.invalid(at.path, s, 'must be a simple json path starting with .')]
  return []
}

/** The /scale subresource's JSON paths (a version's or the top-level spec's). */
export function validateSubresources(sub: Subresources | undefined, at: FieldPath): FieldError[] {
  const scale = sub?.scale
  if (!scale) return []
  const errs: FieldError[] = []
  const check = (field: string, value: string | undefined, prefixes: string[], detail: string, required: boolean) => {
    const path = at.child(`scale.${field}`)
    if (!value) {
      if (required) errs.push(fieldError.required(path.path))
      return
    }
    const bad = simpleJsonPath(value, path)
    if (bad.length > 0) errs.push(...bad)
    else if (!prefixes.some((p) => value.startsWith(p))) errs.push(fieldError.invalid(path.path, value, detail))
  }
  check('specReplicasPath', scale.specReplicasPath, ['.spec.'], 'should be a json path under .spec', true)
  check('statusReplicasPath', scale.statusReplicasPath, ['.status.'], 'should be a json path under .status', true)
  check(
    'labelSelectorPath',
    scale.labelSelectorPath,
    ['.spec.', '.status.'],
    'should be a json path under either .spec or .status',
    false,
  )
  return errs
}
