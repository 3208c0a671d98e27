// What a request asks for, as kube-apiserver's RequestInfoFactory reads it from the path, method and query: a
// resource request (verb, API group and version, namespace, resource, subresource, name) or a non-resource one. The
// one reading of a path that routing and authorization share, so both always agree on what a request touches.
import { flagValue } from './query'

export interface RequestInfo {
  isResourceRequest: boolean
  /** The path as routed: decoded, dot segments already resolved by URL parsing. */
  path: string
  /** Kube's verb: get, list, watch, create, update, patch, delete, deletecollection, proxy (or the HTTP method, lowercased, for non-resource requests). */
  verb: string
  /** `api` or `apis`. */
  apiPrefix: string
  apiGroup: string
  apiVersion: string
  namespace: string
  resource: string
  subresource: string
  name: string
  /** The path parts from the resource on: resource/name/subresource/... */
  parts: string[]
  /** The verb came from a /watch/ or /proxy/ path prefix (the deprecated forms). */
  verbViaPathPrefix: boolean
}

const API_PREFIXES = new Set(['api', 'apis'])
const GROUPLESS_PREFIXES = new Set(['api'])
const SPECIAL_VERBS = new Set(['proxy', 'watch'])
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize'])

const METHOD_VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
}

/** Path segments as Go splits a decoded URL path; null when the path does not decode. */
function splitPath(pathname: string): { path: string; parts: string[] } | null {
  let path: string
  try {
    path = decodeURIComponent(pathname)
  } catch {
    return null
  }
  const trimmed = path.replace(/^\/+|\/+$/g, '')
  return { path, parts: trimmed === '' ? [] : trimmed.split('/') }
}

/**
 * Reads a request as kube does (k8s.io/apiserver pkg/endpoints/request/requestinfo.go). `query` gives a query
 * parameter's first value. Null when the path is undecodable or names no resource after a /watch/ or /proxy/ prefix.
 */
export function requestInfo(
  method: string,
  pathname: string,
  query: (name: string) => string | undefined,
): RequestInfo | null {
  const split = splitPath(pathname)
  if (!split) return null
  const info: RequestInfo = {
    isResourceRequest: false,
    path: split.path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
    verbViaPathPrefix: false,
  }
  let parts = split.parts
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return info
  info.apiPrefix = parts[0]!
  parts = parts.slice(1)
  if (!GROUPLESS_PREFIXES.has(info.apiPrefix)) {
    if (parts.length < 3) return info
    info.apiGroup = parts[0]!
    parts = parts.slice(1)
  }
  info.isResourceRequest = true
  info.apiVersion = parts[0]!
  parts = parts.slice(1)
  if (SPECIAL_VERBS.has(parts[0]!)) {
    if (parts.length < 2) return null
    info.verb = parts[0]!
    info.verbViaPathPrefix = true
    parts = parts.slice(1)
  } else {
    info.verb = METHOD_VERBS[method.toUpperCase()] ?? ''
  }
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1]!
    // Another step after the namespace name that is not a namespace subresource is a resource in its own right.
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2)
  }
  info.parts = parts
  if (parts.length >= 3 && info.verb !== 'proxy') info.subresource = parts[2]!
  if (parts.length >= 2) info.name = parts[1]!
  if (parts.length >= 1) info.resource = parts[0]!
  if (info.name === '' && info.verb === 'get') {
    info.verb = flagValue(query('watch')) ? 'watch' : 'list'
    const byName = exactName(query('fieldSelector'))
    if (byName) info.name = byName
  }
  if (info.name === '' && info.verb === 'delete') info.verb = 'deletecollection'
  return info
}

/** A metadata.name=<x> (or ==) term of a field selector names the one object a list or watch is about. */
function exactName(fieldSelector: string | undefined): string | null {
  if (!fieldSelector) return null
  for (const term of fieldSelector.split(',')) {
    const m = /^metadata\.name==?(.*)$/.exec(term)
    if (m && /^[^/%]+$/.test(m[1]!) && m[1] !== '.' && m[1] !== '..') return m[1]!
  }
  return null
}
