// The labels kube files a request under: verb (LIST vs GET by scope, WATCH, APPLY, CONNECT), scope as the route's,
// dry_run as cleanDryRun reads it, and the long-running and read-only classes.
import { describe, expect, it } from 'vitest'
import { requestLabels } from '../../src/metrics/request-labels'
import { requestAttributes } from '../../src/identity/request-attributes'

function labels(method: string, target: string, contentType?: string) {
  const url = new URL(`http://x${target}`)
  const attrs = requestAttributes(
    { name: 'u', groups: [] },
    method,
    url.pathname,
    (k) => url.searchParams.get(k) ?? undefined,
  )
  return requestLabels(attrs, { method, queryAll: (n) => url.searchParams.getAll(n), contentType })
}

describe('requestLabels', () => {
  it.each([
    ['GET', '/api/v1/namespaces/a/pods/p', 'GET', 'resource'],
    ['GET', '/api/v1/namespaces/a/pods', 'LIST', 'namespace'],
    ['GET', '/api/v1/pods', 'LIST', 'cluster'],
    ['GET', '/api/v1/nodes', 'LIST', 'cluster'],
    ['GET', '/api/v1/namespaces/a/pods?watch=true', 'WATCH', 'namespace'],
    ['GET', '/api/v1/namespaces/a/pods?watch=0', 'LIST', 'namespace'],
    ['GET', '/api/v1/watch/namespaces/a/pods', 'WATCH', 'namespace'],
    ['POST', '/api/v1/namespaces/a/pods', 'POST', 'resource'],
    ['PUT', '/api/v1/namespaces/a/pods/p', 'PUT', 'resource'],
    ['DELETE', '/api/v1/namespaces/a/pods', 'DELETE', 'namespace'],
    ['PATCH', '/api/v1/namespaces/a/pods/p', 'PATCH', 'resource'],
    ['GET', '/api/v1/namespaces/a/pods/p/log', 'CONNECT', 'resource'],
    ['POST', '/api/v1/namespaces/a/pods/p/exec', 'CONNECT', 'resource'],
    ['OPTIONS', '/api/v1/pods', 'other', 'cluster'],
    ['GET', '/healthz', 'GET', ''],
  ])('%s %s → %s, scope %s', (method, target, verb, scope) => {
    const l = labels(method, target)
    expect(l.verb).toBe(verb)
    expect(l.scope).toBe(scope)
  })

  it('a server-side apply is APPLY', () => {
    expect(labels('PATCH', '/api/v1/namespaces/a/pods/p', 'application/apply-patch+yaml').verb).toBe('APPLY')
  })

  it('dry_run: empty, the sorted distinct values, or invalid', () => {
    expect(labels('POST', '/api/v1/namespaces/a/pods').dryRun).toBe('')
    expect(labels('POST', '/api/v1/namespaces/a/pods?dryRun=All&dryRun=All').dryRun).toBe('All')
    expect(labels('POST', '/api/v1/namespaces/a/pods?dryRun=Some').dryRun).toBe('invalid')
  })

  it('group, version, resource and subresource from the path; none for a non-resource request', () => {
    const l = labels('GET', '/apis/discovery.k8s.io/v1/namespaces/a/endpointslices/s')
    expect([l.group, l.version, l.resource, l.subresource]).toEqual(['discovery.k8s.io', 'v1', 'endpointslices', ''])
    expect(labels('GET', '/api/v1/namespaces/a/pods/p/status').subresource).toBe('status')
    const n = labels('GET', '/version')
    expect([n.group, n.version, n.resource, n.subresource]).toEqual(['', '', '', ''])
  })

  it('watches and connect subresources are long-running; reads are readOnly', () => {
    expect(labels('GET', '/api/v1/pods?watch=1').longRunning).toBe(true)
    expect(labels('GET', '/api/v1/namespaces/a/pods/p/log').longRunning).toBe(true)
    expect(labels('GET', '/api/v1/pods').longRunning).toBe(false)
    expect(labels('GET', '/api/v1/pods').kind).toBe('readOnly')
    expect(labels('DELETE', '/api/v1/namespaces/a/pods/p').kind).toBe('mutating')
  })
})
