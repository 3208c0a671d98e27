// The ConfigMap strategy: kube's ValidateConfigMap (keys, no key in both data and binaryData, 1 MiB in all) and
// ValidateConfigMapUpdate (`immutable`), the `kubectl get configmaps` table (NAME DATA AGE).
import type { ConfigMap } from '../../../schema/config-map'
import type { ObjectMeta } from '../../../schema/meta'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { decodedLength } from '../../go-base64'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { byteLength, nameIsDNSSubdomain } from '../../validation/names'
import {
  AGE_COLUMN,
  MAX_DATA_SIZE,
  NAME_COLUMN,
  sortedKeys,
  tooLarge,
  validateImmutableData,
  validateKeys,
} from './data-keys'

type CM = ConfigMap & { metadata: ObjectMeta }

/** ValidateConfigMap without the metadata (the generic store validates that). */
function validateConfigMap(cm: CM): FieldError[] {
  const errs: FieldError[] = []
  const data = cm.data ?? {}
  const binary = cm.binaryData ?? {}
  let size = 0
  const dataPath = new FieldPath('data')
  for (const key of sortedKeys(data)) {
    errs.push(...validateKeys({ [key]: '' }, 'data'))
    if (Object.hasOwn(binary, key))
      errs.push(fieldError.invalid(dataPath.key(key).toString(), key, 'duplicate of key present in binaryData'))
    size += byteLength(data[key]!)
  }
  errs.push(...validateKeys(binary, 'binaryData'))
  for (const value of Object.values(binary)) size += decodedLength(value)
  // kube reports the whole object (field.NewPath(""), which prints as "[]").
  if (size > MAX_DATA_SIZE) errs.push(tooLarge('[]'))
  return errs
}

export const configMapStrategy: Strategy<CM> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: () => undefined,
  prepareForCreate: () => undefined,
  validate: validateConfigMap,
  prepareForUpdate: () => undefined,
  validateUpdate: (cm, old) => [...validateImmutableData(cm, old, ['data', 'binaryData']), ...validateConfigMap(cm)],
  selectableFields: (cm) => ({
    'metadata.name': cm.metadata.name ?? '',
    'metadata.namespace': cm.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      {
        name: 'Data',
        type: 'string',
        format: '',
        description:
          "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
        priority: 0,
      },
      AGE_COLUMN,
    ],
    cells: (cm, now) => [
      cm.metadata.name,
      Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
      age(cm.metadata.creationTimestamp, now),
    ],
  },
}
