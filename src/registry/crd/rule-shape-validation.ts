// The shape of a CRD schema's x-kubernetes-validations entries (rule, message, messageExpression, reason, fieldPath)
// as apiextensions validation.go checks it; the rules themselves are compiled and costed by src/registry/custom/cel/.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { validFieldPath } from './field-path'
import type { JSONSchemaProps } from './json-schema'
import { tryStructural } from './structural'

const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired']
const NEWLINES = /[\n\r]+/

/** The shape of each x-kubernetes-validations entry (the rules themselves are compiled by checkRules). */
export function ruleShapes(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  ;(s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = path.child('x-kubernetes-validations').index(i)
    const trimmedRule = (rule.rule ?? '').trim()
    const message = rule.message ?? ''
    const trimmedMsg = message.trim()
    const messageExpression = rule.messageExpression ?? ''
    if (trimmedRule.length === 0) errs.push(fieldError.required(at.child('rule').path, 'rule is not specified'))
    else if (message.length > 0 && trimmedMsg.length === 0)
      errs.push(fieldError.invalid(at.child('message').path, message, 'message must be non-empty if specified'))
    else if (NEWLINES.test(trimmedMsg))
      errs.push(fieldError.invalid(at.child('message').path, message, 'message must not contain line breaks'))
    else if (NEWLINES.test(trimmedRule) && trimmedMsg.length === 0)
      errs.push(fieldError.required(at.child('message').path, 'message must be specified if rule contains line breaks'))
    if (messageExpression.length > 0 && messageExpression.trim().length === 0)
      errs.push(
        fieldError.required(at.child('messageExpression').path, 'messageExpression must be non-empty if specified'),
      )
    if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason))
      errs.push(fieldError.notSupported(at.child('reason').path, rule.reason, SUPPORTED_REASONS))
    const fieldPath = rule.fieldPath ?? ''
    if (fieldPath.length > 0 && fieldPath.trim().length === 0)
      errs.push(fieldError.invalid(at.child('fieldPath').path, fieldPath, 'fieldPath must be non-empty if specified'))
    if (NEWLINES.test(fieldPath))
      errs.push(fieldError.invalid(at.child('fieldPath').path, fieldPath, 'fieldPath must not contain line breaks'))
    if (fieldPath.length > 0) {
      const node = tryStructural(s)
      if (node && 'error' in validFieldPath(fieldPath, node))
        errs.push(fieldError.invalid(at.child('fieldPath').path, fieldPath, 'fieldPath must be a valid path'))
    }
  })
  return errs
}
