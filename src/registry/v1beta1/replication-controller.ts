// The v1beta1 ReplicationController table: desiredState (replicas, replicaSelector, podTemplate with the pod's
// desiredState rows) and the read-only currentState.replicas, against core/v1 ReplicationController.
import { rebase, type Row } from './fields'
import { ENVELOPE, POD_DESIRED } from './pod'

export const RC_ROWS: Row[] = [
  ...ENVELOPE,
  // v1beta1 replicas is a plain int: always serialized, and absent means 0 (not v1's default of 1).
  { beta: 'desiredState.replicas', v1: 'spec.replicas', omitted: 0 },
  { beta: 'desiredState.replicaSelector', v1: 'spec.selector' },
  { beta: 'desiredState.podTemplate.labels', v1: 'spec.template.metadata.labels' },
  { beta: 'desiredState.podTemplate.annotations', v1: 'spec.template.metadata.annotations', mode: 'keep' },
  ...rebase(POD_DESIRED, 'desiredState.podTemplate', 'spec.template'),
  { beta: 'currentState.replicas', v1: 'status.replicas', mode: 'read', omitted: 0 },
]
