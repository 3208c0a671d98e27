// kube's options validation (apimachinery metav1/validation), field errors worded byte for byte.
import { describe, expect, it } from 'vitest'
import { renderFieldError } from '../../../src/registry/field-errors'
import {
  validateDeleteOptions,
  validatePatchOptions,
  validateWriteOptions,
} from '../../../src/registry/validation/meta-options'

const text = (errors: ReturnType<typeof validateWriteOptions>) => errors.map(renderFieldError)
const none = { dryRun: [], fieldManager: '', fieldValidation: '' }

describe('create and update options', () => {
  it('accepts what kube accepts', () => {
    expect(validateWriteOptions(none)).toEqual([])
    for (const fieldValidation of ['', 'Ignore', 'Warn', 'Strict']) {
      expect(validateWriteOptions({ ...none, dryRun: ['All', 'All'], fieldValidation })).toEqual([])
    }
  })

  it('a dryRun list with any value but All: the list as Go prints a []string', () => {
    expect(text(validateWriteOptions({ ...none, dryRun: [''] }))).toEqual([
      'dryRun: Unsupported value: []string{""}: supported values: "All"',
    ])
  })

  it('fieldValidation is case-sensitive', () => {
    expect(text(validateWriteOptions({ ...none, fieldValidation: 'strict' }))).toEqual([
      'fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    ])
  })

  it('fieldManager: bytes, not characters, and each unprintable rune at its byte position', () => {
    expect(text(validateWriteOptions({ ...none, fieldManager: 'é'.repeat(65) }))).toEqual([
      'fieldManager: Too long: may not be more than 128 bytes',
    ])
    expect(text(validateWriteOptions({ ...none, fieldManager: 'é\tx' }))).toEqual([
      'fieldManager: Invalid value: "é\\tx": invalid character U+0009 (at position 2)',
    ])
  })
})

describe('patch options', () => {
  it('an apply needs a manager; force is for applies alone', () => {
    expect(text(validatePatchOptions(none, true))).toEqual([
      'fieldManager: Required value: is required for apply patch',
    ])
    expect(text(validatePatchOptions({ ...none, force: false }, false))).toEqual([
      'force: Forbidden: may not be specified for non-apply patch',
    ])
    expect(validatePatchOptions({ ...none, fieldManager: 'm', force: true }, true)).toEqual([])
  })
})

describe('delete options', () => {
  it('a policy kube does not know, the empty one included', () => {
    expect(text(validateDeleteOptions({ propagationPolicy: '' }))).toEqual([
      'propagationPolicy: Unsupported value: "": supported values: "Foreground", "Background", "Orphan", "nil"',
    ])
  })

  it('orphanDependents with a propagationPolicy, whatever both say', () => {
    expect(text(validateDeleteOptions({ orphanDependents: false, propagationPolicy: 'Orphan' }))).toEqual([
      'propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    ])
  })

  it('both errors and a bad dryRun together, in kube order', () => {
    expect(text(validateDeleteOptions({ orphanDependents: true, propagationPolicy: 'Never', dryRun: ['x'] }))).toEqual([
      'propagationPolicy: Invalid value: "Never": orphanDependents and deletionPropagation cannot be both set',
      'propagationPolicy: Unsupported value: "Never": supported values: "Foreground", "Background", "Orphan", "nil"',
      'dryRun: Unsupported value: []string{"x"}: supported values: "All"',
    ])
  })
})
