// The resource names, scopes and limit types quota and limit ranges know (k8s.io/kubernetes pkg/apis/core/helper of
// 1.33: IsStandardQuotaResourceName, IsStandardResourceQuotaScope, IsResourceQuotaScopeValidForResource,
// IsStandardLimitRangeType), and ValidateResourceQuotaResourceName over them.
import { fieldError, type FieldError, type FieldPath } from '../field-errors'
import { validateResourceName } from '../strategies/pod/pod-validation-quantities'

const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
])

const STANDARD_SCOPES = [
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
  'VolumeAttributesClass',
] as const

const POD_COUNT = new Set(['pods'])
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory'])
const PVC_RESOURCES = new Set(['persistentvolumeclaims', 'requests.storage'])

export const isStandardQuotaResourceName = (name: string) =>
  STANDARD_QUOTA_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-')

export const isStandardResourceQuotaScope = (scope: string) => (STANDARD_SCOPES as readonly string[]).includes(scope)

/** IsResourceQuotaScopeValidForResource: which resources each scope may constrain. */
export function isScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource)
    case 'BestEffort':
      return POD_COUNT.has(resource)
    case 'VolumeAttributesClass':
      return PVC_RESOURCES.has(resource)
    default:
      return true
  }
}

export const isStandardLimitRangeType = (type: string) =>
  type === 'Pod' || type === 'Container' || type === 'PersistentVolumeClaim'

/** ValidateResourceQuotaResourceName. */
export function validateQuotaResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path)
  if (!name.includes('/') && !isStandardQuotaResourceName(name))
    errs.push(fieldError.invalid(path.toString(), name, 'must be a standard resource for quota'))
  return errs
}
