// Whether a structural schema keeps kube's invariants (pkg/apiserver/schema validation.go and complete.go): every
// node typed, no types or defaults hidden in value validations, metadata restricted to name and generateName,
// embedded resources and int-or-string shaped as kube requires. Errors sorted by their text, as kube sorts them.
import { fieldError, type FieldError, type FieldPath, renderFieldError } from '../field-errors'
import { compileGoRegexp } from './go-regexp'
import { sortedKeys } from './json-schema'
import type { NestedValueValidation, Structural, ValueValidation } from './structural'

type Level = 'root' | 'item' | 'field'

/** ValidateStructural, with kube's default options (nothing nested allowed beyond allOf's x-kubernetes-validations). */
export function validateStructural(path: FieldPath, s: Structural): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s.valueValidation, s, path, path)]
  return errs.sort((a, b) => {
    const x = renderFieldError(a)
    const y = renderFieldError(b)
    return x < y ? -1 : x > y ? 1 : 0
  })
}

const intOrStringAnyOf = (v: NestedValueValidation[] | undefined) =>
  v?.length === 2 && isOnlyType(v[0]!, 'integer') && isOnlyType(v[1]!, 'string')

/** A nested value validation that says nothing but `type: t`. */
function isOnlyType(v: NestedValueValidation, t: string): boolean {
  const { forbiddenGenerics, forbiddenExtensions, ...rest } = v
  return (
    forbiddenGenerics.type === t &&
    isZero({ ...forbiddenGenerics, type: undefined }) &&
    isZero(forbiddenExtensions) &&
    isZero(rest)
  )
}

/** Go's zero value: every field unset, false or empty string (a present list, even empty, is not zero). */
function isZero(o: object): boolean {
  return Object.values(o).every((v) => v === undefined || v === false || v === '')
}

function invariants(s: Structural | undefined, lvl: Level, path: FieldPath): FieldError[] {
  if (!s) return []
  const errs: FieldError[] = []
  if (s.type === 'array' && !s.items) errs.push(fieldError.required(path.child('items').path, 'must be specified'))
  errs.push(...invariants(s.items, 'item', path.child('items')))
  for (const k of sortedKeys(s.properties)) {
    errs.push(...invariants(s.properties![k], 'field', path.child('properties').key(k)))
  }
  if (s.additionalProperties) {
    if (lvl === 'root')
      errs.push(fieldError.forbidden(path.child('additionalProperties').path, 'must not be used at the root'))
    if (s.additionalProperties.structural)
      errs.push(...invariants(s.additionalProperties.structural, 'field', path.child('additionalProperties')))
  }
  if (s.intOrString && s.preserveUnknownFields) {
    errs.push(
      fieldError.invalid(
        path.child('x-kubernetes-preserve-unknown-fields').path,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    )
  }
  if (s.intOrString && s.embeddedResource) {
    errs.push(
      fieldError.invalid(
        path.child('x-kubernetes-embedded-resource').path,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    )
  }
  const vv = s.valueValidation
  const skipAnyOf = intOrStringAnyOf(vv?.anyOf)
  const skipFirstAllOfAnyOf = (vv?.allOf?.length ?? 0) >= 1 && intOrStringAnyOf(vv!.allOf![0]!.anyOf)
  errs.push(...valueValidation(vv, skipAnyOf, skipFirstAllOfAnyOf, lvl, path))
  const checkMetadata = lvl === 'root' || s.embeddedResource === true
  if (s.embeddedResource && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true'
    errs.push(
      s.type
        ? fieldError.invalid(path.child('type').path, s.type, detail)
        : fieldError.required(path.child('type').path, detail),
    )
  } else if (!s.type && !s.intOrString && !s.preserveUnknownFields) {
    const detail = {
      root: 'must not be empty at the root',
      item: 'must not be empty for specified array items',
      field: 'must not be empty for specified object fields',
    }[lvl]
    errs.push(fieldError.required(path.child('type').path, detail))
  }
  if (s.embeddedResource && s.additionalProperties) {
    errs.push(
      fieldError.forbidden(
        path.child('additionalProperties').path,
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    )
  }
  if (lvl === 'root' && s.type && s.type !== 'object')
    errs.push(fieldError.invalid(path.child('type').path, s.type, 'must be object at the root'))
  const kind = s.properties?.kind
  if (kind && checkMetadata && kind.type !== 'string') {
    errs.push(
      fieldError.invalid(path.child('properties').key('kind').child('type').path, kind.type ?? '', 'must be string'),
    )
  }
  const apiVersion = s.properties?.apiVersion
  if (apiVersion && checkMetadata && apiVersion.type !== 'string') {
    errs.push(
      fieldError.invalid(
        path.child('properties').key('apiVersion').child('type').path,
        apiVersion.type ?? '',
        'must be string',
      ),
    )
  }
  const metadata = s.properties?.metadata
  if (metadata) errs.push(...metadataInvariants(metadata, checkMetadata, lvl, path.child('properties').key('metadata')))
  if (s.embeddedResource && !s.preserveUnknownFields && Object.keys(s.properties ?? {}).length === 0) {
    errs.push(
      fieldError.required(
        path.child('properties').path,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    )
  }
  return errs
}

function metadataInvariants(s: Structural, checkMetadata: boolean, lvl: Level, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (checkMetadata && s.type !== 'object')
    errs.push(fieldError.invalid(path.child('type').path, s.type ?? '', 'must be object'))
  if (lvl === 'root') {
    const keys = Object.keys(s.properties ?? {})
    const onlyNames = keys.length > 0 && keys.length <= 2 && keys.every((k) => k === 'name' || k === 'generateName')
    const { type: _type, default: _default, properties, valueValidation, ...rest } = s
    const restZero =
      isZero(rest) && (onlyNames || properties === undefined) && (!valueValidation || isZero(valueValidation))
    if (!restZero) {
      errs.push(
        fieldError.forbidden(
          path.path,
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      )
    }
  }
  return errs
}

function valueValidation(
  v: ValueValidation | undefined,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  lvl: Level,
  path: FieldPath,
  allowXValidations = true,
): FieldError[] {
  if (!v) return []
  const errs: FieldError[] = []
  if (!skipAnyOf)
    v.anyOf?.forEach((n, i) => errs.push(...nestedValidation(n, false, lvl, path.child('anyOf').index(i), false)))
  v.allOf?.forEach((n, i) =>
    errs.push(
      ...nestedValidation(n, skipFirstAllOfAnyOf && i === 0, lvl, path.child('allOf').index(i), allowXValidations),
    ),
  )
  v.oneOf?.forEach((n, i) => errs.push(...nestedValidation(n, false, lvl, path.child('oneOf').index(i), false)))
  errs.push(...nestedValidation(v.not, false, lvl, path.child('not'), false))
  if (v.pattern) {
    const compiled = compileGoRegexp(v.pattern)
    if ('error' in compiled) {
      errs.push(
        fieldError.invalid(
          path.child('pattern').path,
          v.pattern,
          `must be a valid regular expression, but isn't: ${compiled.error}`,
        ),
      )
    }
  }
  return errs
}

function nestedValidation(
  v: NestedValueValidation | undefined,
  skipAnyOf: boolean,
  lvl: Level,
  path: FieldPath,
  allowXValidations: boolean,
): FieldError[] {
  if (!v) return []
  // kube passes AllowNestedXValidations=false everywhere for CRDs: rules are refused in every junctor.
  const errs = valueValidation(v, skipAnyOf, false, lvl, path, false)
  errs.push(...nestedValidation(v.items, false, lvl, path.child('items'), allowXValidations))
  for (const k of sortedKeys(v.properties)) {
    errs.push(...nestedValidation(v.properties![k], false, 'field', path.child('properties').key(k), allowXValidations))
  }
  const g = v.forbiddenGenerics
  const x = v.forbiddenExtensions
  if (g.type) errs.push(fieldError.forbidden(path.child('type').path, 'must be empty to be structural'))
  if (v.additionalProperties)
    errs.push(fieldError.forbidden(path.child('additionalProperties').path, 'must be undefined to be structural'))
  if (g.default !== undefined)
    errs.push(fieldError.forbidden(path.child('default').path, 'must be undefined to be structural'))
  if (g.title) errs.push(fieldError.forbidden(path.child('title').path, 'must be empty to be structural'))
  if (g.description) errs.push(fieldError.forbidden(path.child('description').path, 'must be empty to be structural'))
  if (g.nullable) errs.push(fieldError.forbidden(path.child('nullable').path, 'must be false to be structural'))
  if (x.preserveUnknownFields)
    errs.push(
      fieldError.forbidden(path.child('x-kubernetes-preserve-unknown-fields').path, 'must be false to be structural'),
    )
  if (x.embeddedResource)
    errs.push(fieldError.forbidden(path.child('x-kubernetes-embedded-resource').path, 'must be false to be structural'))
  if (x.intOrString)
    errs.push(fieldError.forbidden(path.child('x-kubernetes-int-or-string').path, 'must be false to be structural'))
  if ((x.listMapKeys?.length ?? 0) > 0)
    errs.push(fieldError.forbidden(path.child('x-kubernetes-list-map-keys').path, 'must be empty to be structural'))
  if (x.listType !== undefined)
    errs.push(fieldError.forbidden(path.child('x-kubernetes-list-type').path, 'must be undefined to be structural'))
  if (x.mapType !== undefined)
    errs.push(fieldError.forbidden(path.child('x-kubernetes-map-type').path, 'must be undefined to be structural'))
  if ((v.validations?.length ?? 0) > 0 && !allowXValidations)
    errs.push(fieldError.forbidden(path.child('x-kubernetes-validations').path, 'must be empty to be structural'))
  if (v.properties?.metadata)
    errs.push(
      fieldError.forbidden(path.child('properties').key('metadata').path, 'must not be specified in a nested context'),
    )
  return errs
}

/** Every value validation must apply to something the structure declares (complete.go). */
function completeness(
  v: ValueValidation | undefined,
  s: Structural | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldError[] {
  if (!v) return []
  if (!s) return [fieldError.required(sPath.path, `because it is defined in ${vPath.path}`)]
  const errs: FieldError[] = []
  errs.push(...nestedCompleteness(v.not, s, sPath, vPath.child('not')))
  v.allOf?.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, vPath.child('allOf').index(i))))
  v.anyOf?.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, vPath.child('anyOf').index(i))))
  v.oneOf?.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, vPath.child('oneOf').index(i))))
  return errs
}

function nestedCompleteness(
  v: NestedValueValidation | undefined,
  s: Structural | undefined,
  sPath: FieldPath,
  vPath: FieldPath,
): FieldError[] {
  if (!v) return []
  if (!s) return [fieldError.required(sPath.path, `because it is defined in ${vPath.path}`)]
  const errs = completeness(v, s, sPath, vPath)
  errs.push(...nestedCompleteness(v.items, s.items, sPath.child('items'), vPath.child('items')))
  for (const k of sortedKeys(v.properties)) {
    const sField = s.properties?.[k]
    if (!sField) {
      errs.push(
        fieldError.required(
          sPath.child('properties').key(k).path,
          `because it is defined in ${vPath.child('properties').key(k).path}`,
        ),
      )
    } else
      errs.push(
        ...nestedCompleteness(
          v.properties![k],
          sField,
          sPath.child('properties').key(k),
          vPath.child('properties').key(k),
        ),
      )
  }
  return errs
}
