// Name formats (DNS labels and subdomains, qualified names, label values) with apimachinery's exact error details.
//
// Wording follows k8s.io/apimachinery pkg/util/validation/validation.go as shipped with Kubernetes 1.27–1.33
// ("must be no more than N characters", "a qualified name ..."); newer trees moved these to
// pkg/api/validate/content and say "bytes" and "a valid label key" instead.

/** Returns the details of what is wrong with a name, empty when valid; prefix is true when checking a generateName. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[]

const DNS1123_LABEL_MAX_LENGTH = 63
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253
const DNS1035_LABEL_MAX_LENGTH = 63
const QUALIFIED_NAME_MAX_LENGTH = 63
const LABEL_VALUE_MAX_LENGTH = 63

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?'
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?'
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const labelValueFmt = `(${qualifiedNameFmt})?`
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

const anchored = (fmt: string) => new RegExp(`^${fmt}$`)
const dns1123LabelRe = anchored(dns1123LabelFmt)
const dns1123SubdomainRe = anchored(dns1123SubdomainFmt)
const dns1035LabelRe = anchored(dns1035LabelFmt)
const qualifiedNameRe = anchored(qualifiedNameFmt)
const labelValueRe = anchored(labelValueFmt)

const utf8 = new TextEncoder()
/** Go's len(string): limits are in UTF-8 bytes, so a 40-character 'é' value is over 63. */
export const byteLength = (s: string): number => utf8.encode(s).length

export const maxLenError = (length: number) => `must be no more than ${length} characters`
const emptyError = () => 'must be non-empty'

/**
 * apimachinery's RegexError. Each example is followed by "', " and joined with " or ", which is where the double
 * space in "(e.g. 'my-name',  or 'abc-123', ..." comes from; clients match on it, so it stays.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`
}

/** A DNS label (RFC 1123, lower case): namespaces, container names. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH))
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a label can only be failing on its dots (length was reported above).
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots')
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'))
  }
  return errs
}

/** A DNS subdomain (RFC 1123, lower case): pod names, and the prefix of qualified names. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH))
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'))
  return errs
}

/** A DNS-1035 label (starts with a letter): service names. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH))
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'))
  return errs
}

/** `[prefix/]name` as label keys, annotation keys and finalizers use it; the prefix is a DNS subdomain. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = []
  const parts = value.split('/')
  let name: string
  switch (parts.length) {
    case 1:
      name = parts[0]
      break
    case 2: {
      const prefix = parts[0]
      name = parts[1]
      if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`)
      else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`))
      break
    }
    default:
      return [
        `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}` +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ]
  }
  // No else before the regex check: an empty name reports both "must be non-empty" and the regex, as kube does.
  if (name.length === 0) errs.push(`name part ${emptyError()}`)
  else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH)
    errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`)
  if (!qualifiedNameRe.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`)
  }
  return errs
}

/** A label value: empty, or a qualified name's name part. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH))
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'))
  return errs
}

/**
 * apimachinery's maskTrailingDash, quirk included: a generateName ending in '-' has its last TWO characters replaced
 * by 'a' (`name[:len(name)-2] + "a"`), so "ab-" is checked as "aa" and a 64-byte label prefix ending in '-' passes.
 * Kube panics on the lone "-" (slice bounds); we leave it unmasked so it fails validation instead.
 */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name
}

/** NameIsDNSSubdomain: the name rule of pods and most kinds. */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name)

/** NameIsDNSLabel: the name rule of namespaces. */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name)

/** NameIsDNS1035Label: the name rule of services. */
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name)

/** ValidateNamespaceName: what metadata.namespace must be. */
export const validateNamespaceName: ValidateNameFunc = nameIsDNSLabel
