// policy/v1 PodDisruptionBudget as a row of the kind table, with the discovery data a 1.33 cluster serves for it
// (short name pdb, the status subresource). Evictions (pods/eviction) are the pod row's subresource.
import { PodDisruptionBudget } from '../schema/pod-disruption-budget'
import type { ResourceDef } from './resource'
import { podDisruptionBudgetStrategy } from './strategies/pod-disruption-budget'

export function policyResourceRows(): ResourceDef[] {
  return [
    {
      group: 'policy',
      version: 'v1',
      kind: 'PodDisruptionBudget',
      listKind: 'PodDisruptionBudgetList',
      plural: 'poddisruptionbudgets',
      singular: 'poddisruptionbudget',
      shortNames: ['pdb'],
      categories: [],
      namespaced: true,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      schema: PodDisruptionBudget,
      strategy: podDisruptionBudgetStrategy as unknown as ResourceDef['strategy'],
      home: 'namespace',
      returnDeletedObject: false,
      storageVersionHash: 'EVWiDmWqyJw=',
      subresources: [{ name: 'status', kind: 'PodDisruptionBudget', verbs: ['get', 'patch', 'update'] }],
    },
  ]
}
