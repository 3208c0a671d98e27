// SelfSubjectRulesReview's status: the user's rules in visit order, split into resource and non-resource rules,
// omitempty fields left out, lookup errors as evaluationError.
import { describe, expect, it } from 'vitest'
import { selfSubjectRules } from '../../../src/registry/rbac/rules-review'
import { rulesFor } from '../../../src/registry/rbac/rule-resolver'
import { alice, clusterRole, crb, Group, rb, rule, source, urlRule, User } from './rbac-fixtures'

describe('selfSubjectRules', () => {
  it('lists resource rules and URL rules apart, in visit order, repeats kept', () => {
    const src = source({
      clusterRoles: [
        clusterRole('basic', [rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews'])]),
        clusterRole('disco', [urlRule(['get'], ['/api', '/api/*'])]),
        clusterRole('cm', [rule(['get'], [''], ['configmaps'], ['c'])]),
      ],
      clusterRoleBindings: [
        crb('basic', 'basic', [Group('system:authenticated')]),
        crb('disco', 'disco', [User('alice')]),
      ],
      roleBindings: [
        rb('team', 'cm', { kind: 'ClusterRole', name: 'cm' }, [User('alice')]),
        rb('team', 'again', { kind: 'ClusterRole', name: 'basic' }, [User('alice')]),
        rb('team', 'broken', { kind: 'Role', name: 'nope' }, [User('alice')]),
      ],
    })
    const { rules, errors } = rulesFor(alice, 'team', src)
    expect(selfSubjectRules(rules, errors)).toEqual({
      resourceRules: [
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['c'] },
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*'] }],
      incomplete: false,
      evaluationError: 'role.rbac.authorization.k8s.io "nope" not found',
    })
  })

  it('always writes both lists, and no evaluationError without errors', () => {
    const status = selfSubjectRules([])
    expect(status).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false })
    expect(Object.keys(status)).toEqual(['resourceRules', 'nonResourceRules', 'incomplete'])
  })

  it('leaves out rules with neither resources nor URLs, and empty lists of a rule', () => {
    const status = selfSubjectRules([
      { verbs: ['get'], apiGroups: ['x'] },
      { verbs: ['get'], apiGroups: [], resources: ['pods'], resourceNames: [] },
      { verbs: ['get'], resources: [], nonResourceURLs: ['/x'] },
    ])
    expect(status.resourceRules).toEqual([{ verbs: ['get'], resources: ['pods'] }])
    expect(status.nonResourceRules).toEqual([{ verbs: ['get'], nonResourceURLs: ['/x'] }])
  })
})
