// metav1.Condition lists as apimachinery's ValidateConditions checks them (release-1.33): unique types that are
// qualified names, a known status, a set transition time, a CamelCase reason, bounded lengths.
import type { z } from 'zod'
import type { Condition } from '../../schema/meta'
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { byteLength, isQualifiedName, regexError } from './names'

type MetaCondition = z.infer<typeof Condition>

const STATUSES = ['False', 'True', 'Unknown']
const MAX_REASON_LEN = 1024
const MAX_MESSAGE_LEN = 32 * 1024
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?'
const REASON = new RegExp(`^${REASON_FMT}$`)
const REASON_MSG =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'"

function validateCondition(c: Partial<MetaCondition>, at: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const type = c.type ?? ''
  errs.push(...isQualifiedName(type).map((m) => fieldError.invalid(at.child('type').toString(), type, m)))
  if (!STATUSES.includes(c.status ?? ''))
    errs.push(fieldError.notSupported(at.child('status').toString(), c.status ?? '', STATUSES))
  if ((c.observedGeneration ?? 0) < 0) {
    errs.push(
      fieldError.invalid(
        at.child('observedGeneration').toString(),
        c.observedGeneration,
        'must be greater than or equal to zero',
      ),
    )
  }
  if (!c.lastTransitionTime) errs.push(fieldError.required(at.child('lastTransitionTime').toString(), 'must be set'))
  const reason = c.reason ?? ''
  if (reason === '') errs.push(fieldError.required(at.child('reason').toString(), 'must be set'))
  else {
    if (!REASON.test(reason)) {
      const msg = regexError(
        REASON_MSG,
        REASON_FMT,
        'my_name',
        'MY_NAME',
        'MyName',
        'ReasonA,ReasonB',
        'ReasonA:ReasonB',
      )
      errs.push(fieldError.invalid(at.child('reason').toString(), reason, msg))
    }
    if (byteLength(reason) > MAX_REASON_LEN)
      errs.push(fieldError.tooLong(at.child('reason').toString(), MAX_REASON_LEN))
  }
  if (byteLength(c.message ?? '') > MAX_MESSAGE_LEN)
    errs.push(fieldError.tooLong(at.child('message').toString(), MAX_MESSAGE_LEN))
  return errs
}

/** ValidateConditions: each condition, and a type that appears twice. */
export function validateConditions(
  conditions: readonly Partial<MetaCondition>[] | undefined,
  at: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const seen = new Set<string>()
  ;(conditions ?? []).forEach((c, i) => {
    const type = c.type ?? ''
    if (seen.has(type)) errs.push(fieldError.duplicate(at.index(i).child('type').toString(), type))
    seen.add(type)
    errs.push(...validateCondition(c, at.index(i)))
  })
  return errs
}
