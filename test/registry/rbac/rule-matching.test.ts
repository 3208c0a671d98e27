// One rule against one request, as kube's RuleAllows decides, and the compiled index agreeing case by case.
import { describe, expect, it } from 'vitest'
import { ruleAllows } from '../../../src/registry/rbac/rule-matching'
import { compileRules } from '../../../src/registry/rbac/compiled-rules'
import type { Attributes } from '../../../src/registry/rbac/attributes'
import type { PolicyRule } from '../../../src/schema/rbac'
import { alice, clusterRole, crb, nonResource, req, rule, source, urlRule, User } from './rbac-fixtures'

type Case = [what: string, rule: PolicyRule, request: Attributes, allowed: boolean]

const CASES: Case[] = [
  // verbs
  ['exact verb', rule(['get'], [''], ['pods']), req('get', 'pods', { name: 'p' }), true],
  ['other verb', rule(['get'], [''], ['pods']), req('list', 'pods'), false],
  ['verb *', rule(['*'], [''], ['pods']), req('deletecollection', 'pods'), true],
  ['no verbs', rule([], [''], ['pods']), req('get', 'pods'), false],
  // API groups
  ['core group', rule(['get'], [''], ['deployments']), req('get', 'deployments', { apiGroup: 'apps' }), false],
  ['named group', rule(['get'], ['apps'], ['deployments']), req('get', 'deployments', { apiGroup: 'apps' }), true],
  ['group *', rule(['get'], ['*'], ['deployments']), req('get', 'deployments', { apiGroup: 'apps' }), true],
  ['no groups', { verbs: ['get'], resources: ['pods'] }, req('get', 'pods'), false],
  // resources and subresources
  ['resource *', rule(['get'], [''], ['*']), req('get', 'secrets'), true],
  ['resource * covers subresources', rule(['get'], [''], ['*']), req('get', 'pods/log'), true],
  ['plain resource is not its subresource', rule(['get'], [''], ['pods']), req('get', 'pods/log'), false],
  ['subresource is not the resource', rule(['get'], [''], ['pods/log']), req('get', 'pods'), false],
  ['exact subresource', rule(['get'], [''], ['pods/log']), req('get', 'pods/log'), true],
  ['*/sub', rule(['update'], ['apps'], ['*/scale']), req('update', 'deployments/scale', { apiGroup: 'apps' }), true],
  ['*/sub needs a subresource', rule(['get'], [''], ['*/log']), req('get', 'pods'), false],
  ['*/sub is one subresource', rule(['get'], [''], ['*/status']), req('get', 'pods/log'), false],
  ['*/sub matches whole, not by suffix', rule(['get'], [''], ['*/blog']), req('get', 'pods/log'), false],
  ['res/* is no wildcard', rule(['get'], [''], ['pods/*']), req('get', 'pods/log'), false],
  ['res/* matches a subresource named *', rule(['get'], [''], ['pods/*']), req('get', 'pods/*'), true],
  // resource names
  ['named object', rule(['get'], [''], ['pods'], ['nginx']), req('get', 'pods', { name: 'nginx' }), true],
  ['other object', rule(['get'], [''], ['pods'], ['nginx']), req('get', 'pods', { name: 'web' }), false],
  ['names never match a list', rule(['list'], [''], ['pods'], ['nginx']), req('list', 'pods'), false],
  ['names never match a create', rule(['create'], [''], ['pods'], ['nginx']), req('create', 'pods'), false],
  [
    'names with a subresource',
    rule(['get'], [''], ['pods/log'], ['nginx']),
    req('get', 'pods/log', { name: 'nginx' }),
    true,
  ],
  // non-resource URLs
  ['exact path', urlRule(['get'], ['/metrics']), nonResource('get', '/metrics'), true],
  ['exact path only', urlRule(['get'], ['/metrics']), nonResource('get', '/metrics/x'), false],
  ['path verb', urlRule(['get'], ['/metrics']), nonResource('post', '/metrics'), false],
  ['prefix under', urlRule(['get'], ['/api/*']), nonResource('get', '/api/v1'), true],
  ['prefix itself with slash', urlRule(['get'], ['/api/*']), nonResource('get', '/api/'), true],
  ['prefix without its slash', urlRule(['get'], ['/api/*']), nonResource('get', '/api'), false],
  ['prefix without a slash', urlRule(['get'], ['/healthz*']), nonResource('get', '/healthzfoo'), true],
  ['every trailing star trimmed', urlRule(['get'], ['/a**']), nonResource('get', '/ab'), true],
  ['path *', urlRule(['*'], ['*']), nonResource('head', '/anything/at/all'), true],
  // Validation keeps names off URL rules; were one stored anyway, kube's URL matching would not look at them.
  [
    'URL rules ignore names',
    { verbs: ['get'], nonResourceURLs: ['/x'], resourceNames: ['n'] },
    nonResource('get', '/x'),
    true,
  ],
  [
    'URL prefix rules ignore names',
    { verbs: ['get'], nonResourceURLs: ['/x*'], resourceNames: ['n'] },
    nonResource('get', '/xy'),
    true,
  ],
  // the two kinds of rules never cross
  ['resource rule, non-resource request', rule(['*'], ['*'], ['*']), nonResource('get', '/healthz'), false],
  ['URL rule, resource request', urlRule(['*'], ['*']), req('get', 'pods'), false],
]

describe('a rule against a request', () => {
  it.each(CASES)('%s', (_, r, request, allowed) => {
    expect(ruleAllows(request, r)).toBe(allowed)
  })

  it.each(CASES)('compiled: %s', (_, r, request, allowed) => {
    const src = source({ clusterRoles: [clusterRole('r', [r])], clusterRoleBindings: [crb('b', 'r', [User('alice')])] })
    expect(compileRules(alice, request.namespace, src).match(request) !== null).toBe(allowed)
  })
})
