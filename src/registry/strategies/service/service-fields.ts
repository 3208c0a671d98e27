// The service fields a field selector may name (core/v1 conversion: spec.clusterIP and spec.type since 1.31).
import type { ServiceObject } from './service-types'

export const SERVICE_FIELDS = ['metadata.name', 'metadata.namespace', 'spec.clusterIP', 'spec.type'] as const

export const serviceSelectableFields = (svc: ServiceObject): Record<string, string> => ({
  'metadata.name': svc.metadata.name ?? '',
  'metadata.namespace': svc.metadata.namespace ?? '',
  'spec.clusterIP': svc.spec?.clusterIP ?? '',
  'spec.type': svc.spec?.type ?? '',
})
