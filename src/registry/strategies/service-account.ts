// The ServiceAccount strategy: names as DNS subdomains, nothing else to default or validate (kube's
// ValidateServiceAccount); the table shows how many secrets an account names.
import type { ServiceAccount } from '../../schema/service-account'
import { age } from '../human-duration'
import type { Strategy } from '../strategy'
import { nameIsDNSSubdomain } from '../validation/names'

type SA = ServiceAccount & { metadata: NonNullable<ServiceAccount['metadata']> }

export const serviceAccountStrategy: Strategy<SA> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: () => undefined,
  prepareForCreate: () => undefined,
  validate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: () => [],
  selectableFields: (sa) => ({
    'metadata.name': sa.metadata.name ?? '',
    'metadata.namespace': sa.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the service account', priority: 0 },
      { name: 'Secrets', type: 'string', format: '', description: 'How many secrets the account names', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: 'Time since the account was created', priority: 0 },
    ],
    cells: (sa, now) => [sa.metadata.name, String(sa.secrets?.length ?? 0), age(sa.metadata.creationTimestamp, now)],
  },
}
