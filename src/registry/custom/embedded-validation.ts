// Embedded resources inside custom resources (x-kubernetes-embedded-resource; apiextensions
// pkg/apiserver/schema/objectmeta/validation.go): each must say its apiVersion and kind, as strings of their forms,
// and its metadata must be valid ObjectMeta (names as path segments). The resource root is the store's to check.
import type { ObjectMeta } from '../../schema/meta'
import type { Structural } from '../crd/structural'
import { fieldError, type FieldError, FieldPath } from '../field-errors'
import { validateRBACName } from '../strategies/rbac/policy-rule-validation'
import { validateObjectMeta } from '../validation/object-meta'
import { isDNS1035Label } from '../validation/names'

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export function validateEmbedded(s: Structural | undefined, obj: unknown, path = new FieldPath()): FieldError[] {
  if (!s) return []
  const errs: FieldError[] = []
  if (isMap(obj)) {
    if (s.embeddedResource && path.path !== '') errs.push(...embedded(obj, path))
    for (const [k, v] of Object.entries(obj)) {
      const prop = s.properties?.[k]
      if (prop) errs.push(...validateEmbedded(prop, v, path.child(k)))
      else if (s.additionalProperties?.structural)
        errs.push(...validateEmbedded(s.additionalProperties.structural, v, path.key(k)))
    }
  } else if (Array.isArray(obj)) obj.forEach((v, i) => errs.push(...validateEmbedded(s.items, v, path.index(i))))
  return errs
}

function embedded(x: Record<string, unknown>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!('apiVersion' in x)) errs.push(fieldError.required(path.child('apiVersion').path, 'must not be empty'))
  if (!('kind' in x)) errs.push(fieldError.required(path.child('kind').path, 'must not be empty'))
  for (const [k, v] of Object.entries(x)) {
    const at = path.child(k).path
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(fieldError.invalid(at, v, 'must be a string'))
      else if (v === '') errs.push(fieldError.invalid(at, v, 'must not be empty'))
      else if (v.split('/').length > 2) errs.push(fieldError.invalid(at, v, `unexpected GroupVersion string: ${v}`))
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(fieldError.invalid(at, v, 'must be a string'))
      else if (v === '') errs.push(fieldError.invalid(at, v, 'must not be empty'))
      else {
        const bad = isDNS1035Label(v.toLowerCase())
        if (bad.length > 0)
          errs.push(fieldError.invalid(at, v, `may have mixed case, but should otherwise match: ${bad.join(',')}`))
      }
    } else if (k === 'metadata' && isMap(v)) {
      // kube validates a copy with a name filled in: an embedded object may leave its name out.
      const meta = { ...(v as ObjectMeta), name: (v as ObjectMeta).name || 'fakename' }
      errs.push(
        ...validateObjectMeta(
          meta,
          { namespaced: !!meta.namespace, validateName: validateRBACName },
          path.child('metadata'),
        ),
      )
    }
  }
  return errs
}
