// kube-openapi's schema validator (k8s.io/kube-openapi pkg/validation/validate) over a CRD version's schema, as
// apiextensions-apiserver runs it on custom resources (pkg/apiserver/validation): the validators of each node in
// kube's order (type, allOf/oneOf/anyOf/not, string, format, number, items, enum, object), their messages
// (`spec.replicas in body must be of type integer: "string"`), then the field errors kube makes of them. The checks of
// one value: schema-scalar-checks.ts; the result they add to: schema-result.ts.
import { fieldError, type FieldError } from '../field-errors'
import { additionalPropertiesOf, itemsSchema, type JSONSchemaProps } from '../crd/json-schema'
import { isSupportedFormat } from './formats'
import { jsonType } from './go-values'
import { IN, Result, typeMessage } from './schema-result'
import { enumCheck, formatCheck, numberChecks, stringChecks, typeCheck } from './schema-scalar-checks'

/** The schema's type list as kube-openapi sees it (x-kubernetes-int-or-string is integer or string). */
const typesOf = (s: JSONSchemaProps): string[] =>
  s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : []

/** The schema's format, unless kube strips it as unsupported in CRDs. */
const formatOf = (s: JSONSchemaProps) => (s.format && isSupportedFormat(s.format) ? s.format : '')

function validateValue(s: JSONSchemaProps, data: unknown, path = ''): Result {
  const result = new Result()
  const types = typesOf(s)
  const format = formatOf(s)
  if (data === null || data === undefined) {
    // typeValidator refuses a null only where types are set, none of them null, and the schema is not nullable.
    if (types.length > 0 && !types.includes('null') && !s.nullable)
      result.add({ code: 'type', name: path, message: typeMessage(path, types.join(','), 'null'), value: 'null' })
    result.merge(enumCheck(s, data, path))
    return result
  }
  // typeValidator applies when a type or a format is set.
  if (types.length > 0 || format) {
    const t = typeCheck(types, format, data, path)
    if (t) result.add(t)
  }
  result.merge(junctors(s, data, path))
  const kind = jsonType(data)
  if (kind === 'string') result.merge(stringChecks(s, data as string, path), formatCheck(format, data as string, path))
  if (kind === 'integer' || kind === 'number') result.merge(numberChecks(s, data as number, path))
  if (kind === 'array') result.merge(sliceChecks(s, data as unknown[], path))
  result.merge(enumCheck(s, data, path))
  if (kind === 'object') result.merge(objectChecks(s, data as Record<string, unknown>, path))
  result.matchCount++
  return result
}

function junctors(s: JSONSchemaProps, data: unknown, path: string): Result {
  const main = new Result()
  if (s.anyOf?.length) {
    let best: Result | null = null
    let succeeded = false
    let first: Result | null = null
    for (const sub of s.anyOf) {
      const r = validateValue(sub, data, path)
      if (r.valid) {
        succeeded = true
        first ??= r
        best = null
        break
      }
      if (!best || r.matchCount > best.matchCount) best = r
    }
    if (!succeeded)
      main.add({
        code: 'other',
        name: path,
        message: `${JSON.stringify(path)} must validate at least one schema (anyOf)`,
      })
    main.merge(best ?? first)
  }
  if (s.oneOf?.length) {
    let best: Result | null = null
    let first: Result | null = null
    let validated = 0
    for (const sub of s.oneOf) {
      const r = validateValue(sub, data, path)
      if (r.valid) {
        validated++
        best = null
        first ??= r
        continue
      }
      if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r
    }
    if (validated !== 1) {
      const extra = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`
      main.add({
        code: 'other',
        name: path,
        message: `${JSON.stringify(path)} must validate one and only one schema (oneOf). ${extra}`,
      })
      main.merge(best)
    } else main.merge(first)
  }
  if (s.allOf?.length) {
    let validated = 0
    for (const sub of s.allOf) {
      const r = validateValue(sub, data, path)
      if (r.valid) validated++
      main.merge(r)
    }
    if (validated !== s.allOf.length) {
      const extra = validated === 0 ? '. None validated' : ''
      main.add({
        code: 'other',
        name: path,
        message: `${JSON.stringify(path)} must validate all the schemas (allOf)${extra}`,
      })
    }
  }
  if (s.not && validateValue(s.not, data, path).valid)
    main.add({ code: 'other', name: path, message: `${JSON.stringify(path)} must not validate the schema (not)` })
  return main
}

function sliceChecks(s: JSONSchemaProps, data: unknown[], path: string): Result {
  const r = new Result()
  const items = itemsSchema(s)
  if (items) data.forEach((v, i) => r.merge(validateValue(items, v, `${path}[${i}]`)))
  if (s.minItems !== undefined && data.length < s.minItems)
    r.add({
      code: 'other',
      name: path,
      message: `${path} in ${IN} should have at least ${s.minItems} items`,
      value: data.length,
    })
  if (s.maxItems !== undefined && data.length > s.maxItems)
    r.add({
      code: 'maxItems',
      name: path,
      message: `${path} in ${IN} should have at most ${s.maxItems} items`,
      value: data.length,
      valid: s.maxItems,
    })
  return r
}

function objectChecks(s: JSONSchemaProps, data: Record<string, unknown>, path: string): Result {
  const r = new Result()
  const keys = Object.keys(data)
  if (s.minProperties !== undefined && keys.length < s.minProperties)
    r.add({
      code: 'other',
      name: path,
      message: `${path} in ${IN} should have at least ${s.minProperties} properties`,
      value: keys.length,
    })
  if (s.maxProperties !== undefined && keys.length > s.maxProperties)
    r.add({
      code: 'tooManyProperties',
      name: path,
      message: `${path} in ${IN} should have at most ${s.maxProperties} properties`,
      value: keys.length,
      valid: s.maxProperties,
    })
  const additional = additionalPropertiesOf(s.additionalProperties)
  const props = s.properties ?? {}
  if (additional && !additional.allows) {
    for (const k of keys)
      if (!(k in props))
        r.add({ code: 'other', name: path, message: `${path}.${k} in ${IN} is a forbidden property`, value: k })
  } else if (additional?.schema) {
    for (const k of keys) if (!(k in props)) r.merge(validateValue(additional.schema, data[k], `${path}.${k}`))
  }
  for (const [name, sub] of Object.entries(props)) {
    if (name in data) r.merge(validateValue(sub, data[name], path ? `${path}.${name}` : name))
  }
  for (const k of s.required ?? []) {
    if (!(k in data)) r.add({ code: 'required', name: `${path}.${k}`, message: `${path}.${k} in ${IN} is required` })
  }
  return r
}

/**
 * kubeOpenAPIResultToFieldErrors: the field errors kube reports for a result. `prefix` is the path the value sits at
 * in what the caller validates (a CRD's default), prepended to the fields but not to the validator's messages.
 */
export function schemaErrors(s: JSONSchemaProps, data: unknown, prefix = ''): FieldError[] {
  const result = validateValue(s, data, '')
  return result.errors.map((p) => {
    const name = p.name.startsWith('.') ? p.name.slice(1) : p.name
    const field = prefix && name ? `${prefix}.${name}` : prefix || name
    switch (p.code) {
      case 'required':
        return fieldError.required(field)
      case 'enum':
        return fieldError.notSupported(
          field,
          p.value,
          (p.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
        )
      case 'tooLong':
        return { type: 'FieldValueTooLong', field, message: `Too long: may not be more than ${p.valid} bytes` }
      case 'maxItems':
      case 'tooManyProperties':
        return fieldError.tooMany(field, Number(p.value), p.valid ?? -1)
      case 'type':
        return fieldError.typeInvalid(field, p.value ?? '', p.message)
      default:
        return fieldError.invalid(field, p.value ?? '', p.message)
    }
  })
}
