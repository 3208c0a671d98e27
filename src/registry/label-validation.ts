// Label key and value validation. Shared by requirement construction and the selector parser, which has to reject a
// bad key before it reads an operator and so cannot leave that to NewRequirement.
// Key and value validation (apimachinery util/validation, in the wording of the 1.30 servers we identify as; later
// releases moved these to api/validate/content and say "bytes" and "a valid label key" instead)
import { byteLength, maxLenError } from './validation/names'

/** field.Invalid(path, value, detail).Error() */
export const invalid = (path: string, value: string, detail: string) => `${path}: Invalid value: ${value}: ${detail}`

const nameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const nameRe = new RegExp(`^${nameFmt}$`)
const nameMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const valueFmt = `(${nameFmt})?`
const valueRe = new RegExp(`^${valueFmt}$`)
const valueMsg = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`
const subdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'
const subdomainRe = new RegExp(`^${subdomainFmt}$`)
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

/** validation.RegexError; note kube's doubled space after each example's comma. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`
}

/** validation.IsQualifiedName: an optional DNS-subdomain prefix and '/', then a name of at most 63. */
function labelKeyErrors(key: string): string[] {
  const parts = key.split('/')
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError(nameMsg, nameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]
  }
  const errs: string[] = []
  const name = parts.length === 2 ? parts[1]! : parts[0]!
  if (parts.length === 2) {
    const prefix = parts[0]!
    if (prefix === '') errs.push('prefix part must be non-empty')
    else {
      if (byteLength(prefix) > 253) errs.push(`prefix part ${maxLenError(253)}`)
      if (!subdomainRe.test(prefix)) errs.push(`prefix part ${regexError(subdomainMsg, subdomainFmt, 'example.com')}`)
    }
  }
  if (name === '') errs.push('name part must be non-empty')
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`)
  if (!nameRe.test(name)) errs.push(`name part ${regexError(nameMsg, nameFmt, 'MyName', 'my.name', '123-abc')}`)
  return errs
}

/** validation.IsValidLabelValue */
function labelValueErrors(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > 63) errs.push(maxLenError(63))
  if (!valueRe.test(value)) errs.push(regexError(valueMsg, valueFmt, 'MyValue', 'my_value', '12345'))
  return errs
}

/** Whether `key` is a valid label key; for callers validating object labels with their own field paths. */
export function labelKeyError(key: string): string | null {
  const errs = labelKeyErrors(key)
  return errs.length ? errs.join('; ') : null
}

/** Whether `value` is a valid label value; null when it is. */
export function labelValueError(value: string): string | null {
  const errs = labelValueErrors(value)
  return errs.length ? errs.join('; ') : null
}
