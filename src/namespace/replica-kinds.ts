// The two kinds the replica manager core runs (src/namespace/replica-manager.ts): core/v1 ReplicationControllers,
// whose selector is a map of labels, and apps/v1 ReplicaSets, whose selector is a set-based metav1.LabelSelector.
import { selectorMatcher, selectsSomething } from '../registry/strategies/apps/apps-selector'
import type { LabelSelector } from '../registry/strategies/pod/pod-types'
import { selectorMatches } from '../registry/strategies/replication-controller'
import type { KubeObject } from '../schema/meta'
import type { ReplicaKind } from './replica-manager'

const specOf = (o: KubeObject) => (o.spec ?? {}) as { selector?: unknown }

export const replicationControllerKind: ReplicaKind = {
  resource: 'replicationcontrollers',
  apiVersion: 'v1',
  kind: 'ReplicationController',
  component: 'replication-controller',
  selector(rc) {
    const selector = specOf(rc).selector as Record<string, string> | undefined
    if (Object.keys(selector ?? {}).length === 0) return null
    return (labels) => selectorMatches(selector, labels)
  },
}

export const replicaSetKind: ReplicaKind = {
  resource: 'replicasets',
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  component: 'replicaset-controller',
  selector(rs) {
    const selector = specOf(rs).selector as LabelSelector | undefined
    return selectsSomething(selector) ? selectorMatcher(selector) : null
  },
}
