// ValidateFieldManager, one function for managedFields[].manager and the fieldManager option: bytes of the string Go
// holds after JSON decoding, where a lone UTF-16 surrogate became U+FFFD (three bytes, printable).
import { describe, expect, it } from 'vitest'
import { FieldPath, renderFieldError } from '../../../src/registry/field-errors'
import { validateFieldManager, validateManagedFields } from '../../../src/registry/validation/managed-fields'
import { validateWriteOptions } from '../../../src/registry/validation/meta-options'

const text = (errors: ReturnType<typeof validateFieldManager>) => errors.map(renderFieldError)
const LONE = '\ud800'

describe('ValidateFieldManager', () => {
  it('a lone surrogate is U+FFFD, as Go decodes "\\ud800": printable, three bytes', () => {
    expect(validateFieldManager(LONE, 'fieldManager')).toEqual([])
    // 42 × 3 + 2 = 128 bytes: at the limit; one more surrogate is over it.
    expect(validateFieldManager(`${LONE.repeat(42)}ab`, 'fieldManager')).toEqual([])
    expect(text(validateFieldManager(`${LONE.repeat(43)}ab`, 'fieldManager'))).toEqual([
      'fieldManager: Too long: may not be more than 128 bytes',
    ])
  })

  it('an unprintable rune after one is found at its Go byte offset, in the string Go holds', () => {
    expect(text(validateFieldManager(`${LONE}\t`, 'fieldManager'))).toEqual([
      'fieldManager: Invalid value: "\ufffd\\t": invalid character U+0009 (at position 3)',
    ])
  })

  it('the option and managedFields[].manager answer alike', () => {
    const manager = `${LONE.repeat(43)}\u0007`
    const option = text(validateWriteOptions({ dryRun: [], fieldValidation: '', fieldManager: manager }))
    const entry = text(
      validateManagedFields([{ manager, operation: 'Update' }], new FieldPath('metadata').child('managedFields')),
    )
    expect(option).toEqual([
      'fieldManager: Too long: may not be more than 128 bytes',
      `fieldManager: Invalid value: "${'\ufffd'.repeat(43)}\\a": invalid character U+0007 (at position 129)`,
    ])
    expect(entry).toEqual(option.map((e) => e.replace(/^fieldManager/, 'metadata.managedFields[0].manager')))
  })
})
