// The Service strategy: wires defaults, update carry-over, IP-family initialization, validation, selectable fields
// and the table together. Cluster IPs and node ports are allocated outside it, after validation, by the namespace
// host (src/namespace/service-allocation.ts), which fills them into the planned object.
import type { Strategy } from '../../strategy'
import { nameIsDNS1035Label } from '../../validation/names'
import type { ServiceObject } from './service-types'
import { applyServiceDefaults, initIPFamilyFields } from './service-defaults'
import { dropTypeDependentFields, normalizeClusterIPs, patchAllocatedValues } from './service-update'
import { validateService } from './service-validation'
import { validateServiceStatusUpdate, validateServiceUpdate } from './service-validation-update'
import { SERVICE_FIELDS, serviceSelectableFields } from './service-fields'
import { serviceTable } from './service-table'

export const serviceStrategy: Strategy<ServiceObject> = {
  validateName: nameIsDNS1035Label,
  applyDefaults: applyServiceDefaults,
  prepareForCreate(svc) {
    // Status sent on create is discarded; the control plane owns it.
    svc.status = { loadBalancer: {} }
    normalizeClusterIPs(svc, null)
    initIPFamilyFields(svc, null)
  },
  validate: validateService,
  prepareForUpdate(svc, old) {
    svc.status = old.status
    patchAllocatedValues(svc, old)
    normalizeClusterIPs(svc, old)
    dropTypeDependentFields(svc, old)
    initIPFamilyFields(svc, old)
  },
  validateUpdate: validateServiceUpdate,
  validateStatusUpdate: validateServiceStatusUpdate,
  selectableFields: serviceSelectableFields,
  fieldSelectorNames: SERVICE_FIELDS,
  allowUnconditionalUpdate: true,
  table: serviceTable,
}
