// The Pod strategy: wires defaults, validation, selectable fields, graceful deletion and the table together.
import type { Strategy } from '../../strategy'
import { nameIsDNSSubdomain } from '../../validation/names'
import { admitPod } from './pod-admission'
import { mutatePodAffinity } from './pod-affinity-label-keys'
import { applyPodDefaults } from './pod-defaults'
import { podQOS } from './pod-qos'
import { validatePod } from './pod-validation'
import { validatePodStatusUpdate } from './pod-validation-status'
import { validatePodUpdate } from './pod-validation-update'
import { POD_FIELDS, podSelectableFields } from './pod-fields'
import { podTable } from './pod-table'
import { validateServiceAccount } from './service-account-admission'
import type { PodObject } from './pod-types'

export const podStrategy: Strategy<PodObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: applyPodDefaults,
  admit: admitPod,
  validateAdmission: validateServiceAccount,
  prepareForCreate(pod) {
    // Status sent on create is discarded; the control plane owns it.
    pod.status = {
      phase: 'Pending',
      qosClass: podQOS(pod) as 'BestEffort' | 'Burstable' | 'Guaranteed',
    }
    mutatePodAffinity(pod)
  },
  validate: validatePod,
  prepareForUpdate(pod, old) {
    pod.status = old.status
  },
  validateUpdate: validatePodUpdate,
  validateStatusUpdate: validatePodStatusUpdate,
  selectableFields: podSelectableFields,
  fieldSelectorNames: POD_FIELDS,
  allowUnconditionalUpdate: true,
  gracePeriod(pod, options) {
    // An unscheduled or finished pod has nothing to stop: it goes at once.
    if (!pod.spec?.nodeName) return 0
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return 0
    const grace = options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30
    // CheckGracefulDelete: a negative period is the shortest graceful one.
    return grace < 0 ? 1 : grace
  },
  table: podTable,
}
