// The strategy of one version of a custom resource, made from its CRD (apiextensions pkg/registry/customresource
// strategy.go, validator.go): no code per kind. With /status, spec writes keep the stored status and status writes
// keep the rest; generation moves when anything but metadata changes; validation is the schema's (ratcheted on
// updates: errors on values the update leaves unchanged are not reported, as kube 1.33 does), the scale paths',
// the list-type uniqueness and the CEL rules'.
import type { KubeObject } from '../../schema/meta'
import { deepEqual } from '../deep-equal'
import type { ColumnDefinition, JSONSchemaProps } from '../crd/json-schema'
import type { Structural } from '../crd/structural'
import { goV } from '../decoding/go-format'
import { fieldError, type FieldError } from '../field-errors'
import type { ScalePaths } from '../resource'
import type { Strategy } from '../strategy'
import { nameIsDNSSubdomain } from '../validation/names'
import { validateEmbedded } from './embedded-validation'
import { validateListSetsAndMaps } from './list-type-validation'
import { applyDefaults } from './prune-default'
import { customTable } from './printer-columns'
import { schemaErrors } from './schema-validator'
import { findJsonPath, parseJsonPath } from './simple-jsonpath'

/** CEL rules of a version, compiled (src/registry/custom/cel/): errors for an object, or a transition. */
export interface RuleValidator {
  validate(obj: unknown, old: unknown | null): FieldError[]
}

/** What a version of a CRD says about its objects. */
interface CustomVersion {
  /** The apiVersion objects are stored in (conversion None: written in any served version, stored in this one). */
  storedApiVersion: string
  namespaced: boolean
  schema?: JSONSchemaProps
  structural: Structural | null
  status: boolean
  scale?: ScalePaths
  selectableFields: string[]
  columns: ColumnDefinition[]
  rules?: RuleValidator
}

type Obj = KubeObject & Record<string, unknown>

/** unstructured.NestedInt64 along a scale path: the value, or kube's accessor error. */
function nestedInt(obj: unknown, path: string): { value: number } | { error: string; value: unknown } {
  let v: unknown = obj
  for (const part of path.replace(/^\./, '').split('.')) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { value: 0 }
    v = (v as Record<string, unknown>)[part]
    if (v === undefined) return { value: 0 }
  }
  if (typeof v === 'number' && Number.isInteger(v)) return { value: v }
  const type =
    v === null
      ? '<nil>'
      : typeof v === 'string'
        ? 'string'
        : typeof v === 'number'
          ? 'float64'
          : typeof v === 'boolean'
            ? 'bool'
            : Array.isArray(v)
              ? '[]interface {}'
              : 'map[string]interface {}'
  return { error: `${path} accessor error: ${goV(v, 'floats')} is of the type ${type}, expected int64`, value: 0 }
}

function replicasErrors(obj: unknown, path: string): FieldError[] {
  const r = nestedInt(obj, path)
  if ('error' in r) return [fieldError.invalid(path, r.value, r.error)]
  if (r.value < 0) return [fieldError.invalid(path, r.value, 'should be a non-negative integer')]
  if (r.value > 2147483647) return [fieldError.invalid(path, r.value, 'should be less than or equal to 2147483647')]
  return []
}

function scaleErrors(obj: unknown, scale: ScalePaths | undefined, spec: boolean): FieldError[] {
  if (!scale) return []
  const errs = spec ? replicasErrors(obj, scale.specReplicasPath) : []
  errs.push(...replicasErrors(obj, scale.statusReplicasPath))
  if (scale.labelSelectorPath) {
    const found = findJsonPath(obj, parseJsonPath(scale.labelSelectorPath) ?? [])
    if (found.length > 0 && typeof found[0] !== 'string') {
      const path = scale.labelSelectorPath
      errs.push(
        fieldError.invalid(
          path,
          '',
          `${path} accessor error: ${goV(found[0], 'floats')} is of the type ${Array.isArray(found[0]) ? '[]interface {}' : typeof found[0] === 'object' ? 'map[string]interface {}' : typeof found[0]}, expected string`,
        ),
      )
    }
  }
  return errs
}

/** The value a field error's path names (`spec.items[2].name`, `metadata.labels[x]`), if it can be found. */
function valueAt(obj: unknown, field: string): unknown {
  let v: unknown = obj
  for (const m of field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (v === null || typeof v !== 'object') return undefined
    const key = m[1] ?? m[2]!
    v = Array.isArray(v) ? (/^\d+$/.test(key) ? v[Number(key)] : undefined) : (v as Record<string, unknown>)[key]
  }
  return v
}

/** Validation ratcheting: an error about a value the update did not change is not the update's fault. */
const ratchet = (errs: FieldError[], obj: unknown, old: unknown) =>
  errs.filter((e) => !deepEqual(valueAt(obj, e.field), valueAt(old, e.field)))

export function customStrategy(v: CustomVersion): Strategy {
  const selectable = v.selectableFields.map((path) => ({ name: path.replace(/^\./, ''), steps: parseJsonPath(path) }))
  const validateObject = (obj: Obj, old: Obj | null): FieldError[] => {
    const schema = v.schema ? schemaErrors(v.schema, obj) : []
    const errs = [
      ...(old ? ratchet(schema, obj, old) : schema),
      ...scaleErrors(obj, v.scale, true),
      ...validateEmbedded(v.structural ?? undefined, obj),
      ...validateListSetsAndMaps(v.structural ?? undefined, obj),
    ]
    // CEL rules run only over an object the schema accepts (hasBlockingErr: type errors block them).
    if (v.rules && !errs.some((e) => e.type === 'FieldValueTypeInvalid')) errs.push(...v.rules.validate(obj, old))
    return errs
  }
  return {
    validateName: nameIsDNSSubdomain,
    applyDefaults: (obj) => applyDefaults(obj, v.structural ?? undefined),
    prepareForCreate(obj) {
      obj.apiVersion = v.storedApiVersion
      if (v.status) delete (obj as Obj).status
      obj.metadata.generation = 1
    },
    validate: (obj) => validateObject(obj as Obj, null),
    prepareForUpdate(obj, old) {
      obj.apiVersion = v.storedApiVersion
      const o = obj as Obj
      const prev = old as Obj
      if (v.status) {
        if (prev.status !== undefined) o.status = prev.status
        else delete o.status
      }
      const { metadata: _m, ...content } = o
      const { metadata: _p, ...oldContent } = prev
      if (!deepEqual(content, oldContent)) o.metadata.generation = (prev.metadata.generation ?? 0) + 1
    },
    validateUpdate: (obj, old) => validateObject(obj as Obj, old as Obj),
    // kube's custom resource status strategy keeps all of the old object but status (labels and annotations too),
    // stored in the storage version whatever version the write came through.
    prepareForStatusUpdate(obj, old) {
      obj.apiVersion = v.storedApiVersion
      const meta = obj.metadata as Record<string, unknown>
      for (const k of ['labels', 'annotations'] as const) {
        if (old.metadata[k] === undefined) delete meta[k]
        else meta[k] = structuredClone(old.metadata[k])
      }
    },
    validateStatusUpdate: (obj, old) => {
      const errs = v.schema ? ratchet(schemaErrors(v.schema, obj), obj, old) : []
      errs.push(...scaleErrors(obj, v.scale, false))
      if (v.rules && !errs.some((e) => e.type === 'FieldValueTypeInvalid')) errs.push(...v.rules.validate(obj, old))
      return errs
    },
    selectableFields(obj) {
      const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' }
      if (v.namespaced) fields['metadata.namespace'] = obj.metadata.namespace ?? ''
      for (const f of selectable) {
        const found = f.steps ? findJsonPath(obj, f.steps) : []
        const value = found[0]
        fields[f.name] = value === undefined || value === null ? '' : goV(value, 'preserveInts')
      }
      return fields
    },
    fieldSelectorNames: [
      'metadata.name',
      ...(v.namespaced ? ['metadata.namespace'] : []),
      ...selectable.map((f) => f.name),
    ],
    allowUnconditionalUpdate: false,
    table: customTable(v.columns) as unknown as Strategy['table'],
  }
}
