// metadata.managedFields validation (apimachinery pkg/apis/meta/v1/validation ValidateManagedFields): each entry's
// operation, fieldsType, manager (ValidateFieldManager) and subresource.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import type { ObjectMeta } from '../../schema/meta'
import { byteLength } from './names'

type ManagedFieldsEntry = NonNullable<ObjectMeta['managedFields']>[number]

const FIELD_MANAGER_MAX_LENGTH = 128
const MAX_SUBRESOURCE_NAME_LENGTH = 256

/** ValidateManagedFields. */
export function validateManagedFields(
  entries: readonly ManagedFieldsEntry[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  ;(entries ?? []).forEach((entry, i) => {
    const at = path.index(i)
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') {
      const operation = entry.operation ?? ''
      errs.push(fieldError.invalid(at.child('operation').toString(), operation, 'must be `Apply` or `Update`'))
    }
    if (entry.fieldsType && entry.fieldsType !== 'FieldsV1') {
      errs.push(fieldError.invalid(at.child('fieldsType').toString(), entry.fieldsType, 'must be `FieldsV1`'))
    }
    errs.push(...validateFieldManager(entry.manager ?? '', at.child('manager').toString()))
    if (byteLength(entry.subresource ?? '') > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldError.tooLong(at.child('subresource').toString(), MAX_SUBRESOURCE_NAME_LENGTH))
    }
  })
  return errs
}

/**
 * ValidateFieldManager (metadata.managedFields[].manager and the fieldManager option): at most 128 bytes, every rune
 * printable (Go's unicode.IsPrint). Go holds the string JSON decoding made, where a lone UTF-16 surrogate (`"\ud800"`)
 * became U+FFFD, three bytes and printable: measured and walked as such here (JSON.parse keeps the surrogate, which
 * TextEncoder also counts as three bytes, but which is no printable character).
 */
export function validateFieldManager(manager: string, field: string): FieldError[] {
  // Every write names a manager, nearly always in printable ASCII, which IsPrint accepts whole: no test per character.
  if (PRINTABLE_ASCII.test(manager)) {
    return manager.length > FIELD_MANAGER_MAX_LENGTH ? [fieldError.tooLong(field, FIELD_MANAGER_MAX_LENGTH)] : []
  }
  const errs: FieldError[] = []
  const asGo = manager.toWellFormed()
  if (byteLength(asGo) > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldError.tooLong(field, FIELD_MANAGER_MAX_LENGTH))
  let offset = 0 // Go ranges over a string by byte offset
  for (const ch of asGo) {
    if (!PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')
      errs.push(fieldError.invalid(field, asGo, `invalid character U+${code} (at position ${offset})`))
    }
    offset += byteLength(ch)
  }
  return errs
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u
/** U+0020 to U+007E: all printable (letters, digits, punctuation, symbols, space). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/
