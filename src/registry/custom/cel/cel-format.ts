// kube's CEL format library (k8s.io/apiserver pkg/cel/library/format.go, in the environment since 1.31):
// format.named(<name>) (an optional format), format.<name>() for each named format, and <format>.validate(<string>),
// which answers optional.none() for a valid string or the list of what is wrong with it, in kube's words (the name
// checks of apimachinery, url.ParseRequestURI, kube-openapi's uuid, byte, date and date-time checks). A format is a
// map holding its name under '@format'; equal formats compare equal.
import { CelScalar, celError, celFunc, type CelFunc, celMap, celMethod, mapType } from '@bufbuild/cel'
import { goQuote } from '../../go-strings'
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maskTrailingDash,
} from '../../validation/names'
import { checkFormat } from '../formats'
import { optionalOf } from './cel-optional'

const { DYN, STRING } = CelScalar
const MAP = mapType(STRING, DYN)
const FORMAT_KEY = '@format'

/** Go's stringContainsCTLByte: a byte below 0x20, or DEL. */
function hasControlByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}

/** url.ParseRequestURI's refusals, as its *url.Error prints them (`parse "<url>": <why>`). */
function requestURIErrors(s: string): string[] {
  const fail = (why: string) => [`parse ${goQuote(s)}: ${why}`]
  if (hasControlByte(s)) return fail('net/url: invalid control character in URL')
  if (s === '') return fail('empty url')
  if (s === '*') return []
  const bad = /%(?![0-9a-fA-F]{2})(.{0,2})/.exec(s)
  if (bad) return fail(`invalid URL escape ${goQuote(`%${bad[1]}`)}`)
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(s)
  if (!scheme) {
    if (s.startsWith(':')) return fail('missing protocol scheme')
    // No scheme: only an absolute path is a request URI.
    return s.startsWith('/') ? [] : fail('invalid URI for request')
  }
  const rest = s.slice(scheme[0].length).split('?')[0]!
  if (!rest.startsWith('/')) return []
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0]!
    const host = authority.slice(authority.lastIndexOf('@') + 1)
    const port = /^(?:\[[^\]]*\]|[^:]*)(:.*)?$/.exec(host)?.[1]
    if (port !== undefined && !/^:\d*$/.test(port)) return fail(`invalid port ${goQuote(port)} after host`)
  }
  return []
}

/** The named formats and their checks (format.go's ConstantFormats). */
const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: (s) => isDNS1123Label(maskTrailingDash(s)),
  dns1123SubdomainPrefix: (s) => isDNS1123Subdomain(maskTrailingDash(s)),
  dns1035LabelPrefix: (s) => isDNS1035Label(maskTrailingDash(s)),
  labelValue: isValidLabelValue,
  uri: requestURIErrors,
  uuid: (s) => (checkFormat('uuid', s) ? [] : ['does not match the UUID format']),
  byte: (s) => (checkFormat('byte', s) ? [] : ['invalid base64']),
  date: (s) => (checkFormat('date', s) ? [] : ['invalid date']),
  datetime: (s) => (checkFormat('date-time', s) ? [] : ['invalid datetime']),
}

const formatValue = (name: string) => celMap(new Map([[FORMAT_KEY, name]]))

export const FORMAT_FUNCS: CelFunc[] = [
  celFunc('format.named', [STRING], MAP, (name) =>
    Object.hasOwn(FORMATS, name) ? optionalOf(formatValue(name), true) : optionalOf(null, false),
  ),
  ...Object.keys(FORMATS).map((name) => celFunc(`format.${name}`, [], MAP, () => formatValue(name))),
  celMethod('validate', MAP, [STRING], MAP, function (s) {
    const check = FORMATS[String(this.get(FORMAT_KEY))]
    if (!check) throw celError('no such overload')
    const errs = check(s)
    return errs.length === 0 ? optionalOf(null, false) : optionalOf(errs, true)
  }),
]
