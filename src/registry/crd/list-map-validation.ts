// The list and map extensions of a CRD schema (x-kubernetes-list-type, x-kubernetes-list-map-keys,
// x-kubernetes-map-type) checked as apiextensions validation.go checks them on each node of the schema walk.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { itemsSchema, type JSONSchemaProps } from './json-schema'

/** The list and map extensions of one schema node: each on the right type, with supported values and keys. */
export function listAndMapTypes(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const mapType = s['x-kubernetes-map-type']
  const listType = s['x-kubernetes-list-type']
  const keys = s['x-kubernetes-list-map-keys'] ?? []
  if (mapType !== undefined && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified'
    errs.push(
      s.type
        ? fieldError.invalid(path.child('type').path, s.type, detail)
        : fieldError.required(path.child('type').path, detail),
    )
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular')
    errs.push(fieldError.notSupported(path.child('x-kubernetes-map-type').path, mapType, ['atomic', 'granular']))
  const item = itemsSchema(s)
  if (listType !== undefined && s.type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified'
    errs.push(
      s.type
        ? fieldError.invalid(path.child('type').path, s.type, detail)
        : fieldError.required(path.child('type').path, detail),
    )
  } else if (listType === 'set' && item) {
    if (
      item.type === 'array' &&
      item['x-kubernetes-list-type'] !== undefined &&
      item['x-kubernetes-list-type'] !== 'atomic'
    ) {
      errs.push(
        fieldError.invalid(
          path.child('items').child('x-kubernetes-list-type').path,
          item['x-kubernetes-list-type'],
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      )
    }
    if (item.type === 'object' && item['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(
        fieldError.invalid(
          path.child('items').child('x-kubernetes-map-type').path,
          item['x-kubernetes-list-type'] ?? null,
          'must be atomic as item of a list with x-kubernetes-list-type=set',
        ),
      )
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map')
    errs.push(fieldError.notSupported(path.child('x-kubernetes-list-type').path, listType, ['atomic', 'set', 'map']))
  if (keys.length > 0) {
    if (listType === undefined)
      errs.push(
        fieldError.required(
          path.child('x-kubernetes-list-type').path,
          'must be map if x-kubernetes-list-map-keys is non-empty',
        ),
      )
    else if (listType !== 'map')
      errs.push(
        fieldError.invalid(
          path.child('x-kubernetes-list-type').path,
          listType,
          'must be map if x-kubernetes-list-map-keys is non-empty',
        ),
      )
  }
  if (listType === 'map') {
    if (keys.length === 0)
      errs.push(
        fieldError.required(
          path.child('x-kubernetes-list-map-keys').path,
          'must not be empty if x-kubernetes-list-type is map',
        ),
      )
    if (s.items === undefined)
      errs.push(fieldError.required(path.child('items').path, 'must have a schema if x-kubernetes-list-type is map'))
    if (s.items !== undefined && !item)
      errs.push(
        fieldError.invalid(
          path.child('items').path,
          s.items,
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      )
    if (item && item.type !== 'object') {
      errs.push(
        fieldError.invalid(
          path.child('items').child('type').path,
          item.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      )
    }
    if (item && item.type === 'object') {
      const seen = new Set<string>()
      for (const k of keys) {
        const p = item.properties?.[k]
        if (p) {
          if (p.type === 'array' || p.type === 'object') {
            errs.push(
              fieldError.invalid(
                path.child('items').child('properties').key(k).child('type').path,
                item.type,
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            )
          }
        } else {
          errs.push(
            fieldError.invalid(
              path.child('x-kubernetes-list-map-keys').path,
              keys,
              'entries must all be names of item properties',
            ),
          )
        }
        if (seen.has(k))
          errs.push(
            fieldError.invalid(
              path.child('x-kubernetes-list-map-keys').path,
              keys,
              'must not contain duplicate entries',
            ),
          )
        seen.add(k)
      }
    }
  }
  return errs
}

/** validateMapListKeysMapSet: set and map items not nullable, map keys required or defaulted and not nullable. */
export function mapListKeysMapSet(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const item = itemsSchema(s)
  const listType = s['x-kubernetes-list-type']
  if (!item || (listType !== 'set' && listType !== 'map')) return []
  const errs: FieldError[] = []
  if (item.nullable)
    errs.push(
      fieldError.forbidden(
        path.child('items').child('nullable').path,
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    )
  if (listType === 'map') {
    const required = new Set(item.required ?? [])
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const p = item.properties?.[k]
      if (!p) continue
      const at = path.child('items').child('properties').key(k)
      if (!required.has(k) && p.default === undefined) {
        errs.push(
          fieldError.required(
            at.child('default').path,
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        )
      }
      if (p.nullable)
        errs.push(
          fieldError.forbidden(
            at.child('nullable').path,
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        )
    }
  }
  return errs
}
