// Impersonation: the Impersonate-* headers read as kube reads them, the authorization checks kube makes in its order,
// the user the request then runs as, and kube's refusal of groups, extras or a uid without a user.
import { describe, expect, it } from 'vitest'
import { type ImpersonationCheck, readImpersonation } from '../../src/auth/impersonation'

const URI = '/api/v1/namespaces/default/pods'
const read = (headers: [string, string][], uri = URI) => readImpersonation(headers, uri)

const check = (over: Partial<ImpersonationCheck>): ImpersonationCheck => ({
  verb: 'impersonate',
  apiGroup: '',
  apiVersion: '',
  resource: 'users',
  subresource: '',
  namespace: '',
  name: '',
  resourceRequest: true,
  ...over,
})

describe('no impersonation', () => {
  it.each<[string, [string, string][]]>([
    ['no headers', []],
    [
      'unrelated headers',
      [
        ['authorization', 'Bearer x'],
        ['x-impersonate-user', 'bob'],
      ],
    ],
    ['an empty Impersonate-User alone', [['impersonate-user', '']]],
    ['an empty Impersonate-Uid alone', [['impersonate-uid', '']]],
  ])('%s', (_, headers) => {
    expect(read(headers)).toEqual({ impersonating: false })
  })
})

describe('checks and the resulting user', () => {
  it('a user: one users check; system:authenticated added', () => {
    expect(read([['Impersonate-User', 'jane@example.com']])).toEqual({
      impersonating: true,
      checks: [check({ resource: 'users', name: 'jane@example.com' })],
      user: { name: 'jane@example.com', groups: ['system:authenticated'] },
    })
  })

  it('a ServiceAccount: a serviceaccounts check in its namespace; its two groups when no group is given', () => {
    expect(read([['impersonate-user', 'system:serviceaccount:ci:builder']])).toEqual({
      impersonating: true,
      checks: [check({ resource: 'serviceaccounts', namespace: 'ci', name: 'builder' })],
      user: {
        name: 'system:serviceaccount:ci:builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'],
      },
    })
  })

  it('a ServiceAccount with groups: the given groups only', () => {
    const r = read([
      ['impersonate-user', 'system:serviceaccount:ci:builder'],
      ['impersonate-group', 'g1'],
    ])
    expect(r.impersonating && r.user.groups).toEqual(['g1', 'system:authenticated'])
  })

  it.each([
    'system:serviceaccount:ci',
    'system:serviceaccount:ci:builder:extra',
    'system:serviceaccount:',
    'system:serviceaccount::builder',
    'system:serviceaccount:CI:builder',
    'system:serviceaccount:ci:Builder',
    'system:serviceaccount:ci:b_x',
    `system:serviceaccount:${'n'.repeat(64)}:builder`,
    'System:serviceaccount:ci:builder',
  ])('%s is not a valid ServiceAccount name, so it is a plain user', (name) => {
    expect(read([['impersonate-user', name]])).toEqual({
      impersonating: true,
      checks: [check({ resource: 'users', name })],
      user: { name, groups: ['system:authenticated'] },
    })
  })

  it('ServiceAccount names may be DNS subdomains', () => {
    const r = read([['impersonate-user', 'system:serviceaccount:ci:a.b-c']])
    expect(r.impersonating && r.checks).toEqual([
      check({ resource: 'serviceaccounts', namespace: 'ci', name: 'a.b-c' }),
    ])
  })

  it("the order is kube's: user, groups, extras, uid, whatever the header order", () => {
    const r = read([
      ['impersonate-uid', 'uid-7'],
      ['impersonate-extra-scopes', 'view'],
      ['impersonate-group', 'g1'],
      ['impersonate-extra-scopes', 'edit'],
      ['impersonate-user', 'jane'],
      ['impersonate-group', 'g2'],
    ])
    expect(r).toEqual({
      impersonating: true,
      checks: [
        check({ resource: 'users', name: 'jane' }),
        check({ resource: 'groups', name: 'g1' }),
        check({ resource: 'groups', name: 'g2' }),
        check({
          apiGroup: 'authentication.k8s.io',
          apiVersion: 'v1',
          resource: 'userextras',
          subresource: 'scopes',
          name: 'view',
        }),
        check({
          apiGroup: 'authentication.k8s.io',
          apiVersion: 'v1',
          resource: 'userextras',
          subresource: 'scopes',
          name: 'edit',
        }),
        check({ apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids', name: 'uid-7' }),
      ],
      user: {
        name: 'jane',
        uid: 'uid-7',
        groups: ['g1', 'g2', 'system:authenticated'],
        extra: { scopes: ['view', 'edit'] },
      },
    })
  })

  it('repeated headers joined by the runtime (", ") are split back into values', () => {
    const r = read([
      ['impersonate-user', 'jane'],
      ['impersonate-group', 'g1, g2'],
      ['impersonate-extra-scopes', 'a, b'],
    ])
    expect(r.impersonating && r.user).toEqual({
      name: 'jane',
      groups: ['g1', 'g2', 'system:authenticated'],
      extra: { scopes: ['a', 'b'] },
    })
  })

  it('a group value with a comma but no space stays one group', () => {
    const r = read([
      ['impersonate-user', 'jane'],
      ['impersonate-group', 'a,b'],
    ])
    expect(r.impersonating && r.user.groups).toEqual(['a,b', 'system:authenticated'])
  })

  it.each([
    ['system:authenticated given: not added again', ['system:authenticated', 'g'], ['system:authenticated', 'g']],
    [
      'system:unauthenticated given: system:authenticated not added',
      ['system:unauthenticated'],
      ['system:unauthenticated'],
    ],
    ['an empty group is a group', [''], ['', 'system:authenticated']],
  ])('groups: %s', (_, groups, expected) => {
    const r = read([['impersonate-user', 'jane'], ...groups.map((g): [string, string] => ['impersonate-group', g])])
    expect(r.impersonating && r.user.groups).toEqual(expected)
  })

  it.each([
    ['system:anonymous gets system:unauthenticated', [], ['system:unauthenticated']],
    ['system:anonymous with groups: system:unauthenticated appended', ['g'], ['g', 'system:unauthenticated']],
    [
      'system:anonymous already unauthenticated: unchanged',
      ['system:unauthenticated', 'g'],
      ['system:unauthenticated', 'g'],
    ],
    [
      'system:anonymous with system:authenticated: system:unauthenticated still appended',
      ['system:authenticated'],
      ['system:authenticated', 'system:unauthenticated'],
    ],
  ])('%s', (_, groups, expected) => {
    const r = read([
      ['impersonate-user', 'system:anonymous'],
      ...groups.map((g): [string, string] => ['impersonate-group', g]),
    ])
    expect(r.impersonating && r.user.groups).toEqual(expected)
  })

  it.each([
    ['Impersonate-Extra-Acme.com%2Fproject', 'acme.com/project'],
    ['impersonate-extra-acme.com%2fproject', 'acme.com/project'],
    // Lower-cased first, then unescaped: an escaped capital stays a capital.
    ['Impersonate-Extra-Foo%41', 'fooA'],
    ['Impersonate-Extra-a+b', 'a+b'],
    ['Impersonate-Extra-caf%C3%A9', 'café'],
    // A malformed escape: kube keeps the lower-cased key as it is.
    ['Impersonate-Extra-Bad%zzKey', 'bad%zzkey'],
    ['Impersonate-Extra-Trailing%4', 'trailing%4'],
    ['Impersonate-Extra-', ''],
  ])('extra key from %s is %j', (header, key) => {
    const r = read([
      ['impersonate-user', 'jane'],
      [header, 'v'],
    ])
    expect(r.impersonating && r.user.extra).toEqual({ [key]: ['v'] })
    expect(r.impersonating && r.checks[1]).toEqual(
      check({
        apiGroup: 'authentication.k8s.io',
        apiVersion: 'v1',
        resource: 'userextras',
        subresource: key,
        name: 'v',
      }),
    )
  })

  it('nothing is inherited: no uid or extra unless the headers give them', () => {
    const r = read([['impersonate-user', 'jane']])
    expect(r.impersonating && r.user).toEqual({ name: 'jane', groups: ['system:authenticated'] })
  })

  it('Impersonate-User takes the value whole', () => {
    const r = read([['impersonate-user', 'Doe, Jane']])
    expect(r.impersonating && r.user.name).toBe('Doe, Jane')
  })
})

describe("refusal: groups, extras or a uid without a user (kube's 500 text, answered 400)", () => {
  it.each<[string, [string, string][], string, string]>([
    [
      'a group',
      [['impersonate-group', 'system:masters']],
      URI,
      `Internal Server Error: "${URI}": requested [{Group  system:masters    }] without impersonating a user`,
    ],
    [
      'groups, an extra and a uid, in kube order',
      [
        ['impersonate-uid', 'u1'],
        ['impersonate-group', 'g1'],
        ['impersonate-extra-scopes', 'view'],
        ['impersonate-group', 'g2'],
      ],
      URI,
      `Internal Server Error: "${URI}": requested [{Group  g1    } {Group  g2    } {UserExtra  view  authentication.k8s.io/v1  scopes} {UID  u1  authentication.k8s.io/v1  }] without impersonating a user`,
    ],
    [
      'an empty user does not count',
      [
        ['impersonate-user', ''],
        ['impersonate-uid', 'u1'],
      ],
      URI,
      `Internal Server Error: "${URI}": requested [{UID  u1  authentication.k8s.io/v1  }] without impersonating a user`,
    ],
    [
      'the URI with its query, HTML-escaped as kube sanitizes',
      [['impersonate-group', '<g&>']],
      '/api/v1/pods?limit=1&labelSelector=a>b',
      'Internal Server Error: "/api/v1/pods?limit=1&amp;labelSelector=a&gt;b": requested [{Group  &lt;g&amp;&gt;    }] without impersonating a user',
    ],
    [
      'the URI quoted as Go %q',
      [['impersonate-group', 'g']],
      '/api/v1/x"y\\z',
      'Internal Server Error: "/api/v1/x\\"y\\\\z": requested [{Group  g    }] without impersonating a user',
    ],
  ])('%s', (_, headers, uri, message) => {
    expect(read(headers, uri)).toEqual({
      impersonating: false,
      refused: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'BadRequest',
        code: 400,
      },
    })
  })
})
