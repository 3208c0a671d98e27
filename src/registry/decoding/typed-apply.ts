// What structured-merge-diff's typed conversion of an applied configuration (ObjectToTyped, sigs.k8s.io/structured-
// merge-diff/v4 typed/validate.go) says about values of the wrong shape: `.spec.containers: expected list, got &{x}`,
// `.metadata.labels.a: expected string, got &value.valueUnstructured{Value:1}`, and list items it cannot key.
// Unknown fields are left to fieldValidation, as they were before this check existed.
import { goQuote } from '../go-strings'
import { goFloat, goSharpV, goTypeName, goV } from './go-format'
import type { GoField, GoType } from './go-types'

/** %v and %#v of the *valueUnstructured SMD wraps every value of an unstructured object in. */
const shown = (v: unknown) => `&{${goV(v, 'floats')}}`
const shownSharp = (v: unknown) => `&value.valueUnstructured{Value:${goSharpV(v, 'floats', false)}}`

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

/** value.ToString: how a key value prints inside a path element. */
function keyString(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'string') return goQuote(v)
  if (typeof v === 'number') return goFloat(v)
  return goV(v, 'floats')
}

/** The SMD errors for an applied configuration, each `path: message`; empty when it converts. */
export function typedApplyErrors(doc: Record<string, unknown>, type: GoType): string[] {
  const errors: string[] = []
  const report = (path: string, message: string): void => {
    errors.push(path ? `${path}: ${message}` : message)
  }

  function visit(v: unknown, t: GoType, path: string): void {
    if (v === null || v === undefined) return
    switch (t.kind) {
      case 'struct':
      case 'map': {
        if (!isMap(v)) {
          report(path, `expected map, got ${shown(v)}`)
          return
        }
        for (const k in v) {
          const f = t.kind === 'struct' ? t.fields.get(k) : { type: t.elem!, meta: {}, optional: true, omitEmpty: null }
          if (f) visitField(v[k], f, `${path}.${k}`)
        }
        return
      }
      case 'string':
      case 'bytes':
      case 'time':
      case 'microTime':
        if (typeof v !== 'string') report(path, `expected string, got ${shownSharp(v)}`)
        return
      case 'bool':
        if (typeof v !== 'boolean') report(path, `expected boolean, got ${shown(v)}`)
        return
      case 'int':
      case 'float':
        if (typeof v !== 'number') report(path, `expected numeric (int or float), got ${goTypeName(v, 'floats')}`)
        return
      case 'intOrString':
      case 'quantity':
        if (!isScalar(v)) report(path, `expected any scalar, got ${shown(v)}`)
        return
      default:
        return
    }
  }

  function visitField(v: unknown, f: GoField, path: string) {
    if (f.type.kind !== 'slice') return visit(v, f.type, path)
    if (v === null || v === undefined) return
    if (!Array.isArray(v)) {
      report(path, `expected list, got ${shown(v)}`)
      return
    }
    const listType = f.meta['x-kubernetes-list-type']
    const keys = f.meta['x-kubernetes-list-map-keys'] ?? []
    const elem = f.type.elem!
    for (let i = 0; i < v.length; i++) {
      const item = v[i]
      let element: string
      if (listType === 'map' && keys.length > 0) {
        if (item === null) {
          report(path, `element ${i}: associative list with keys may not have a null element`)
          return
        }
        if (!isMap(item)) {
          report(path, `element ${i}: associative list with keys may not have non-map elements`)
          return
        }
        const parts: string[] = []
        for (const key of [...keys].sort()) {
          const value = item[key] !== undefined ? item[key] : elem.fields.get(key)?.meta.default
          if (value === undefined) {
            return report(
              path,
              `element ${i}: associative list with keys has an element that omits key field ${goQuote(key)} (and doesn't have default value)`,
            )
          }
          parts.push(`${key}=${keyString(value)}`)
        }
        element = `[${parts.join(',')}]`
      } else if (listType === 'set') {
        if (isMap(item))
          return report(path, `element ${i}: associative list without keys has an element that's a map type`)
        if (Array.isArray(item))
          return report(path, `element ${i}: not supported: associative list with lists as elements`)
        if (item === null)
          return report(path, `element ${i}: associative list without keys has an element that's an explicit null`)
        element = `[=${keyString(item)}]`
      } else {
        element = `[${i}]`
      }
      visit(item, elem, path + element)
    }
  }

  visit(doc, type, '')
  return errors
}
