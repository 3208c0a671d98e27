// The ServiceAccount strategy: names as DNS subdomains, nothing else to default or validate (kube's
// ValidateServiceAccount); the table shows how many secrets an account names.
import { CREATION_DOC, NAME_DOC } from '../table-column-docs'
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
      { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
      {
        name: 'Secrets',
        type: 'string',
        format: '',
        description:
          'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
        priority: 0,
      },
      { name: 'Age', type: 'string', format: '', description: CREATION_DOC, priority: 0 },
    ],
    cells: (sa, now) => [sa.metadata.name, String(sa.secrets?.length ?? 0), age(sa.metadata.creationTimestamp, now)],
  },
}
