// ClusterRole aggregation as kube's controller computes it: selectors in order, matching roles by name, the role
// itself skipped, repeats (semantically equal rules) dropped; the bootstrap admin/edit/view chain settling.
import { describe, expect, it } from 'vitest'
import { aggregatedRules, aggregationChanges } from '../../../src/registry/rbac/aggregation'
import { bootstrapPolicy } from '../../../src/registry/rbac/bootstrap-policy'
import type { ClusterRole } from '../../../src/schema/rbac'
import { clusterRole, rule } from './rbac-fixtures'
import { EFFECTIVE_RULES } from './effective-rules'

const aggregating = (name: string, ...selectors: Record<string, string>[]): ClusterRole => ({
  ...clusterRole(name, null),
  aggregationRule: { clusterRoleSelectors: selectors.map((matchLabels) => ({ matchLabels })) },
})

describe('aggregatedRules', () => {
  const r1 = rule(['get'], [''], ['pods'])
  const r2 = rule(['list'], [''], ['pods'])
  const r3 = rule(['get'], ['apps'], ['deployments'])

  it('is null for a role without aggregationRule', () => {
    expect(aggregatedRules(clusterRole('plain', [r1]), [])).toBeNull()
  })

  it('walks selectors in order, and the roles of each by name', () => {
    const all = [
      clusterRole('zz', [r1], { a: 'x' }),
      clusterRole('aa', [r2], { a: 'x' }),
      clusterRole('mm', [r3], { b: 'y' }),
      clusterRole('unlabelled', [rule(['*'], ['*'], ['*'])]),
    ]
    expect(aggregatedRules(aggregating('agg', { b: 'y' }, { a: 'x' }), all)).toEqual({ ok: true, rules: [r3, r2, r1] })
    expect(aggregatedRules(aggregating('agg', { a: 'x' }, { b: 'y' }), all)).toEqual({ ok: true, rules: [r2, r1, r3] })
  })

  it('orders names byte-wise, as Go compares strings', () => {
    const all = [
      clusterRole('b', [r1], { a: 'x' }),
      clusterRole('B', [r2], { a: 'x' }),
      clusterRole('a', [r3], { a: 'x' }),
    ]
    expect(aggregatedRules(aggregating('agg', { a: 'x' }), all)).toEqual({ ok: true, rules: [r2, r3, r1] })
  })

  it('drops semantically equal rules (a missing list equals an empty one) and skips the role itself', () => {
    const self = { ...aggregating('agg', { a: 'x' }), metadata: { name: 'agg', labels: { a: 'x' } }, rules: [r3] }
    const all = [
      clusterRole('one', [r1, r2], { a: 'x' }),
      clusterRole('two', [{ ...r1, resourceNames: [] }, r2, r1], { a: 'x' }),
      self,
    ]
    expect(aggregatedRules(self, all)).toEqual({ ok: true, rules: [r1, r2] })
  })

  it('fails the sync on a selector that does not convert', () => {
    const bad: ClusterRole = {
      ...clusterRole('agg', null),
      aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' as 'In' }] }] },
    }
    expect(aggregatedRules(bad, [])).toEqual({ ok: false, message: '"Near" is not a valid label selector operator' })
  })

  it('reports a change only when the rules differ semantically', () => {
    expect(aggregationChanges(clusterRole('r', null), [])).toBe(false)
    expect(aggregationChanges(clusterRole('r', [r1]), [{ ...r1, resourceNames: [] }])).toBe(false)
    expect(aggregationChanges(clusterRole('r', [r1, r2]), [r2, r1])).toBe(true)
    expect(aggregationChanges(clusterRole('r', null), [r1])).toBe(true)
  })
})

describe('the bootstrap admin, edit and view roles', () => {
  it('settle to the effective rules kube computes: view 10, edit 23, admin 25', () => {
    const roles = bootstrapPolicy().clusterRoles
    let passes = 0
    // The controller re-syncs every aggregated role after each write, until nothing changes.
    for (let changed = true; changed; passes++) {
      changed = false
      for (const role of roles) {
        const agg = aggregatedRules(role, roles)
        if (agg?.ok && aggregationChanges(role, agg.rules)) {
          role.rules = agg.rules
          changed = true
        }
      }
    }
    const rulesOf = (name: string) => roles.find((r) => r.metadata?.name === name)?.rules
    expect(rulesOf('view')).toHaveLength(10)
    expect(rulesOf('edit')).toHaveLength(23)
    expect(rulesOf('admin')).toHaveLength(25)
    expect(rulesOf('view')).toEqual(EFFECTIVE_RULES.view)
    expect(rulesOf('edit')).toEqual(EFFECTIVE_RULES.edit)
    expect(rulesOf('admin')).toEqual(EFFECTIVE_RULES.admin)
    expect(passes).toBeLessThanOrEqual(4)
  })
})
