// Request → authorizer attributes, table-driven: kube's RequestInfo reading for every path shape we route, and the
// v1beta1 API's own (namespace in the query, camelCase resources).
import { describe, expect, it } from 'vitest'
import { requestAttributes } from '../../src/identity/request-attributes'

const user = { name: 'u', groups: [] }

/** Attributes without the user, for a method and a URL (parsed as the Worker parses it: dot segments resolved). */
function attrs(method: string, url: string) {
  const u = new URL(url, 'https://kube.test')
  const { user: _, ...rest } = requestAttributes(user, method, u.pathname, (k) => u.searchParams.get(k) ?? undefined)
  return rest
}

const resource = (verb: string, over: Record<string, string> = {}) => ({
  verb,
  namespace: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
  resourceRequest: true,
  ...over,
})

describe('requestAttributes', () => {
  const cases: [string, string, ReturnType<typeof resource> | Record<string, unknown>][] = [
    ['GET', '/api/v1/pods', resource('list', { path: '/api/v1/pods' })],
    ['GET', '/api/v1/namespaces/a/pods', resource('list', { namespace: 'a', path: '/api/v1/namespaces/a/pods' })],
    [
      'GET',
      '/api/v1/namespaces/a/pods?watch=1',
      resource('watch', { namespace: 'a', path: '/api/v1/namespaces/a/pods' }),
    ],
    [
      'GET',
      '/api/v1/namespaces/a/pods?watch=false',
      resource('list', { namespace: 'a', path: '/api/v1/namespaces/a/pods' }),
    ],
    [
      'GET',
      '/api/v1/namespaces/a/pods?fieldSelector=metadata.name%3Dx',
      {
        ...resource('list', { namespace: 'a', name: 'x', path: '/api/v1/namespaces/a/pods' }),
        fieldSelector: [{ field: 'metadata.name', operator: '=', value: 'x' }],
      },
    ],
    // The field selector is judged for lists, watches and deletecollections (kube's AuthorizeWithSelectors), not for
    // the deprecated /watch/ paths, and not when it does not parse.
    [
      'GET',
      '/api/v1/pods?watch=1&fieldSelector=spec.nodeName%3D%3Dn1',
      {
        ...resource('watch', { path: '/api/v1/pods' }),
        fieldSelector: [{ field: 'spec.nodeName', operator: '==', value: 'n1' }],
      },
    ],
    ['GET', '/api/v1/watch/pods?fieldSelector=spec.nodeName%3Dn1', resource('watch', { path: '/api/v1/watch/pods' })],
    ['GET', '/api/v1/pods?fieldSelector=spec.nodeName', resource('list', { path: '/api/v1/pods' })],
    [
      'GET',
      '/api/v1/namespaces/a/pods/x?fieldSelector=spec.nodeName%3Dn1',
      resource('get', { namespace: 'a', name: 'x', path: '/api/v1/namespaces/a/pods/x' }),
    ],
    [
      'GET',
      '/api/v1/namespaces/a/pods/x',
      resource('get', { namespace: 'a', name: 'x', path: '/api/v1/namespaces/a/pods/x' }),
    ],
    ['POST', '/api/v1/namespaces/a/pods', resource('create', { namespace: 'a', path: '/api/v1/namespaces/a/pods' })],
    [
      'PUT',
      '/api/v1/namespaces/a/pods/x',
      resource('update', { namespace: 'a', name: 'x', path: '/api/v1/namespaces/a/pods/x' }),
    ],
    [
      'PATCH',
      '/api/v1/namespaces/a/pods/x',
      resource('patch', { namespace: 'a', name: 'x', path: '/api/v1/namespaces/a/pods/x' }),
    ],
    [
      'DELETE',
      '/api/v1/namespaces/a/pods/x',
      resource('delete', { namespace: 'a', name: 'x', path: '/api/v1/namespaces/a/pods/x' }),
    ],
    [
      'DELETE',
      '/api/v1/namespaces/a/pods',
      resource('deletecollection', { namespace: 'a', path: '/api/v1/namespaces/a/pods' }),
    ],
    [
      'GET',
      '/api/v1/namespaces/a/pods/x/log',
      resource('get', { namespace: 'a', name: 'x', subresource: 'log', path: '/api/v1/namespaces/a/pods/x/log' }),
    ],
    [
      'POST',
      '/api/v1/namespaces/a/pods/x/exec?command=ls',
      resource('create', { namespace: 'a', name: 'x', subresource: 'exec', path: '/api/v1/namespaces/a/pods/x/exec' }),
    ],
    [
      'GET',
      '/api/v1/watch/namespaces/a/pods/x',
      resource('watch', { namespace: 'a', name: 'x', path: '/api/v1/watch/namespaces/a/pods/x' }),
    ],
    [
      'GET',
      '/api/v1/namespaces/a',
      resource('get', { resource: 'namespaces', namespace: 'a', name: 'a', path: '/api/v1/namespaces/a' }),
    ],
    [
      'PUT',
      '/api/v1/namespaces/a/finalize',
      resource('update', {
        resource: 'namespaces',
        namespace: 'a',
        name: 'a',
        subresource: 'finalize',
        path: '/api/v1/namespaces/a/finalize',
      }),
    ],
    [
      'GET',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/a/roles',
      resource('list', {
        apiGroup: 'rbac.authorization.k8s.io',
        resource: 'roles',
        namespace: 'a',
        path: '/apis/rbac.authorization.k8s.io/v1/namespaces/a/roles',
      }),
    ],
    // Dot segments are resolved before anything reads the path: the attributes name where the request really goes.
    [
      'GET',
      '/api/v1/namespaces/a/pods/../../b/pods',
      resource('list', { namespace: 'b', path: '/api/v1/namespaces/b/pods' }),
    ],
    [
      'GET',
      '/api/v1/namespaces/a/pods/%2e%2e/%2E%2E/b/pods/y',
      resource('get', { namespace: 'b', name: 'y', path: '/api/v1/namespaces/b/pods/y' }),
    ],
    // v1beta1: the namespace rides in the query (default when absent), resources are camelCase.
    [
      'GET',
      '/api/v1beta1/pods',
      resource('list', { apiVersion: 'v1beta1', namespace: 'default', path: '/api/v1beta1/pods' }),
    ],
    [
      'POST',
      '/api/v1beta1/replicationControllers?namespace=team',
      resource('create', {
        apiVersion: 'v1beta1',
        resource: 'replicationcontrollers',
        namespace: 'team',
        path: '/api/v1beta1/replicationControllers',
      }),
    ],
    [
      'DELETE',
      '/api/v1beta1/services/s?namespace=team',
      resource('delete', {
        apiVersion: 'v1beta1',
        resource: 'services',
        name: 's',
        namespace: 'team',
        path: '/api/v1beta1/services/s',
      }),
    ],
    // Non-resource requests: the lowercased method and the path.
    [
      'GET',
      '/version',
      {
        verb: 'get',
        namespace: '',
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        name: '',
        resourceRequest: false,
        path: '/version',
      },
    ],
    [
      'HEAD',
      '/healthz',
      {
        verb: 'head',
        namespace: '',
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        name: '',
        resourceRequest: false,
        path: '/healthz',
      },
    ],
    [
      'GET',
      '/apis',
      {
        verb: 'get',
        namespace: '',
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        name: '',
        resourceRequest: false,
        path: '/apis',
      },
    ],
    [
      'GET',
      '/api/v1',
      {
        verb: 'get',
        namespace: '',
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        name: '',
        resourceRequest: false,
        path: '/api/v1',
      },
    ],
    // An undecodable path is a non-resource request for the path as sent (only `*` grants it).
    [
      'GET',
      '/api/v1/namespaces/%ff/pods',
      {
        verb: 'get',
        namespace: '',
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        name: '',
        resourceRequest: false,
        path: '/api/v1/namespaces/%ff/pods',
      },
    ],
  ]
  for (const [method, url, want] of cases) {
    it(`${method} ${url}`, () => {
      expect(attrs(method, url)).toEqual(want)
    })
  }
})
