// Reading a request as kube's RequestInfoFactory reads it: the one reading routing and authorization share.
import { describe, expect, it } from 'vitest'
import { requestInfo } from '../../src/api/request-info'

const read = (method: string, path: string, query: Record<string, string> = {}) =>
  requestInfo(method, path, (k) => query[k])

describe('requestInfo', () => {
  it.each([
    [
      'GET',
      '/api/v1/namespaces/a/pods',
      {},
      { verb: 'list', namespace: 'a', resource: 'pods', name: '', subresource: '' },
    ],
    ['GET', '/api/v1/namespaces/a/pods', { watch: 'True' }, { verb: 'watch', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/a/pods', { watch: 'false' }, { verb: 'list' }],
    ['GET', '/api/v1/namespaces/a/pods', { fieldSelector: 'metadata.name=x' }, { verb: 'list', name: 'x' }],
    ['GET', '/api/v1/namespaces/a/pods/p', {}, { verb: 'get', name: 'p' }],
    ['GET', '/api/v1/namespaces/a/pods/p/log', {}, { verb: 'get', name: 'p', subresource: 'log' }],
    ['POST', '/api/v1/namespaces/a/pods/p/exec', {}, { verb: 'create', subresource: 'exec' }],
    ['PUT', '/api/v1/namespaces/a/pods/p/status', {}, { verb: 'update', subresource: 'status' }],
    ['PATCH', '/api/v1/nodes/n', {}, { verb: 'patch', namespace: '', resource: 'nodes', name: 'n' }],
    ['DELETE', '/api/v1/namespaces/a/pods', {}, { verb: 'deletecollection' }],
    ['DELETE', '/api/v1/namespaces/a/pods/p', {}, { verb: 'delete' }],
    ['POST', '/api/v1/namespaces', {}, { verb: 'create', resource: 'namespaces', namespace: '' }],
    ['GET', '/api/v1/namespaces/a', {}, { verb: 'get', resource: 'namespaces', name: 'a', namespace: 'a' }],
    // status and finalize after a namespace's name are its subresources, not resources of the namespace.
    ['PUT', '/api/v1/namespaces/a/status', {}, { resource: 'namespaces', name: 'a', subresource: 'status' }],
    ['PUT', '/api/v1/namespaces/a/finalize', {}, { resource: 'namespaces', name: 'a', subresource: 'finalize' }],
    [
      'GET',
      '/api/v1/watch/namespaces/a/pods',
      {},
      { verb: 'watch', namespace: 'a', resource: 'pods', verbViaPathPrefix: true },
    ],
    ['GET', '/api/v1/watch/namespaces/a/pods/p', {}, { verb: 'watch', name: 'p' }],
    ['GET', '/api/v1/watch/pods', {}, { verb: 'watch', namespace: '', resource: 'pods' }],
    ['GET', '/api/v1/pods', {}, { verb: 'list', namespace: '', resource: 'pods' }],
    [
      'GET',
      '/apis/discovery.k8s.io/v1/namespaces/a/endpointslices',
      {},
      { apiGroup: 'discovery.k8s.io', apiVersion: 'v1', resource: 'endpointslices' },
    ],
    ['GET', '/api/v1/proxy/namespaces/a/pods/p/x/y', {}, { verb: 'proxy', name: 'p', subresource: '' }],
  ])('%s %s %j', (method, path, query, want) => {
    expect(read(method, path, query)).toMatchObject({ isResourceRequest: true, ...want })
  })

  it.each([
    ['/'],
    ['/api'],
    ['/api/v1'],
    ['/apis/discovery.k8s.io'],
    ['/apis/discovery.k8s.io/v1'],
    ['/version'],
    ['/healthz'],
    ['/openapi/v3/api/v1'],
  ])('%s is a non-resource request', (path) => {
    expect(read('GET', path)).toMatchObject({ isResourceRequest: false, verb: 'get', path })
  })

  it('reads the decoded path: an encoded slash separates segments, as in Go', () => {
    expect(read('GET', '/api/v1/namespaces/a%2Fb/pods')).toMatchObject({ namespace: 'a', resource: 'b', name: 'pods' })
    expect(read('GET', '/api/v1/namespaces/%zz/pods')).toBeNull()
    expect(read('GET', '/api/v1/watch')).toBeNull()
  })
})
