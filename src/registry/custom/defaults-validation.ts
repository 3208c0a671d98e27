// ValidateDefaults (apiextensions pkg/apiserver/schema/defaulting/validation.go): every default in a CRD schema must
// be pruned already (no field the schema does not declare) and valid against the schema it sits in, reported at
// `<path>.default`. Defaults inside metadata, apiVersion and kind are refused earlier (validation.go forbids them).
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { deepEqual } from '../deep-equal'
import { itemsSchema, type JSONSchemaProps } from '../crd/json-schema'
import { tryStructural } from '../crd/structural'
import { prune } from './prune-default'
import { schemaErrors } from './schema-validator'

const META = new Set(['metadata', 'apiVersion', 'kind'])

export function validateDefaults(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  walk(schema, path, true, false, errs)
  return errs
}

function walk(s: JSONSchemaProps, path: FieldPath, isRoot: boolean, insideMeta: boolean, errs: FieldError[]) {
  const embedded = isRoot || s['x-kubernetes-embedded-resource'] === true
  if (s.default !== undefined && !insideMeta) {
    const at = path.child('default')
    const structural = tryStructural(s)
    const pruned = structuredClone(s.default)
    if (structural) prune(pruned, structural, s['x-kubernetes-embedded-resource'] === true)
    if (!deepEqual(pruned, s.default)) errs.push(fieldError.invalid(at.path, s.default, 'must not have unknown fields'))
    else errs.push(...schemaErrors(s, s.default, at.path))
  }
  const items = itemsSchema(s)
  if (items) walk(items, path.child('items'), false, insideMeta, errs)
  for (const k of Object.keys(s.properties ?? {}).sort())
    walk(s.properties![k]!, path.child('properties').key(k), false, insideMeta || (embedded && META.has(k)), errs)
}
