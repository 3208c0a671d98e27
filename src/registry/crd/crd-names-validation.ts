// A CRD's names as apiextensions validation.go checks them: the ones spec.names must give, and
// ValidateCustomResourceDefinitionNames (spec.names, and status.acceptedNames as the naming controller sets them).
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { isDNS1035Label } from '../validation/names'
import type { CrdNames } from './json-schema'

/** The names a CRD's spec must give. */
export function requiredNames(n: CrdNames | undefined): FieldError[] {
  const errs: FieldError[] = []
  if (!n?.plural) errs.push(fieldError.required('spec.names.plural'))
  if (!n?.singular) errs.push(fieldError.required('spec.names.singular'))
  if (!n?.kind) errs.push(fieldError.required('spec.names.kind'))
  if (!n?.listKind) errs.push(fieldError.required('spec.names.listKind'))
  return errs
}

/** ValidateCustomResourceDefinitionNames. */
export function validateNames(n: CrdNames | undefined, at: FieldPath): FieldError[] {
  if (!n) return []
  const errs: FieldError[] = []
  const label = (field: string, value: string | undefined) => {
    if (!value) return
    const bad = isDNS1035Label(value)
    if (bad.length > 0) errs.push(fieldError.invalid(at.child(field).path, value, bad.join(',')))
  }
  const mixedCase = (field: string, value: string | undefined) => {
    if (!value) return
    const bad = isDNS1035Label(value.toLowerCase())
    if (bad.length > 0)
      errs.push(
        fieldError.invalid(
          at.child(field).path,
          value,
          `may have mixed case, but should otherwise match: ${bad.join(',')}`,
        ),
      )
  }
  label('plural', n.plural)
  label('singular', n.singular)
  mixedCase('kind', n.kind)
  mixedCase('listKind', n.listKind)
  n.shortNames?.forEach((s, i) => {
    const bad = isDNS1035Label(s)
    if (bad.length > 0) errs.push(fieldError.invalid(at.child('shortNames').index(i).path, s, bad.join(',')))
  })
  if (n.kind && n.kind === n.listKind)
    errs.push(fieldError.invalid(at.child('listKind').path, n.listKind, 'kind and listKind may not be the same'))
  n.categories?.forEach((c, i) => {
    const bad = isDNS1035Label(c)
    if (bad.length > 0) errs.push(fieldError.invalid(at.child('categories').index(i).path, c, bad.join(',')))
  })
  return errs
}
