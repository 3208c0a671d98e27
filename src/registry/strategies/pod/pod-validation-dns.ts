// A pod's DNS configuration (validatePodDNSConfig), after kube-apiserver 1.33 pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { list, validateIP } from './pod-validation-formats'
import type { PodDNSConfig } from './pod-types'

const MAX_DNS_NAMESERVERS = 3
const MAX_DNS_SEARCH_PATHS = 32
const MAX_DNS_SEARCH_LIST_CHARS = 2048
const DNS_LABEL_US = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?'
const DNS_SUBDOMAIN_US = `${DNS_LABEL_US}(\\.${DNS_LABEL_US})*`
const DNS_SUBDOMAIN_US_RE = new RegExp(`^${DNS_SUBDOMAIN_US}$`)

/** IsDNS1123SubdomainWithUnderscore (RelaxedDNSSearchValidation is beta and on in 1.33). */
function validateSearchDomain(search: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const at = path.toString()
  if (new TextEncoder().encode(search).length > 253)
    errs.push(fieldError.invalid(at, search, 'must be no more than 253 characters'))
  if (!DNS_SUBDOMAIN_US_RE.test(search)) {
    const msg =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character"
    errs.push(
      fieldError.invalid(at, search, `${msg} (e.g. 'example.com', regex used for validation is '${DNS_SUBDOMAIN_US}')`),
    )
  }
  return errs
}

/** validatePodDNSConfig. */
export function validatePodDNSConfig(
  config: PodDNSConfig | undefined,
  dnsPolicy: string,
  path: FieldPath,
): FieldError[] {
  if (dnsPolicy === 'None') {
    if (!config) return [fieldError.required(path.toString(), 'must provide `dnsConfig` when `dnsPolicy` is None')]
    if (list(config.nameservers).length === 0) {
      return [
        fieldError.required(
          path.child('nameservers').toString(),
          'must provide at least one DNS nameserver when `dnsPolicy` is None',
        ),
      ]
    }
  }
  if (!config) return []
  const errs: FieldError[] = []
  const nameservers = list(config.nameservers)
  if (nameservers.length > MAX_DNS_NAMESERVERS) {
    errs.push(
      fieldError.invalid(
        path.child('nameservers').toString(),
        nameservers,
        `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`,
      ),
    )
  }
  nameservers.forEach((ns, i) => errs.push(...validateIP(ns, path.child('nameservers').index(i))))
  const searches = list(config.searches)
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    errs.push(
      fieldError.invalid(
        path.child('searches').toString(),
        searches,
        `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`,
      ),
    )
  }
  if (searches.join(' ').length > MAX_DNS_SEARCH_LIST_CHARS) {
    errs.push(
      fieldError.invalid(
        path.child('searches').toString(),
        searches,
        `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`,
      ),
    )
  }
  searches.forEach((search, i) => {
    if (search !== '.')
      errs.push(
        ...validateSearchDomain(search.endsWith('.') ? search.slice(0, -1) : search, path.child('searches').index(i)),
      )
  })
  list(config.options).forEach((option, i) => {
    if (!option.name) errs.push(fieldError.required(path.child('options').index(i).toString(), 'must not be empty'))
  })
  return errs
}
