// The Secret strategy: kube's defaulting (type Opaque) and conversion (stringData merged into data, never stored),
// ValidateSecret (keys, 1 MiB, each type's required keys and JSON) and ValidateSecretUpdate (type and `immutable`),
// `type` as a field selector, and the `kubectl get secrets` table (NAME TYPE DATA AGE). Values are never logged or
// echoed: kube's messages name keys, and print "<secret contents redacted>" for bad contents.
import type { ObjectMeta } from '../../../schema/meta'
import type { Secret } from '../../../schema/secret'
import { goJsonSyntaxError } from '../../decoding/go-json-syntax'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { base64OfText, decodeBase64, decodedLength } from '../../go-base64'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/object-meta'
import { nameIsDNSSubdomain } from '../../validation/names'
import { AGE_COLUMN, MAX_DATA_SIZE, NAME_COLUMN, tooLarge, validateImmutableData, validateKeys } from './data-keys'

type SecretObject = Secret & { metadata: ObjectMeta }

/** The secret types kube names (core/v1 types.go) and the keys they require. */
export const SecretType = {
  Opaque: 'Opaque',
  ServiceAccountToken: 'kubernetes.io/service-account-token',
  Dockercfg: 'kubernetes.io/dockercfg',
  DockerConfigJson: 'kubernetes.io/dockerconfigjson',
  BasicAuth: 'kubernetes.io/basic-auth',
  SSHAuth: 'kubernetes.io/ssh-auth',
  TLS: 'kubernetes.io/tls',
  BootstrapToken: 'bootstrap.kubernetes.io/token',
} as const

const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name'
const REDACTED = '<secret contents redacted>'
const dataPath = new FieldPath('data')
const dataKey = (k: string) => dataPath.key(k).toString()

/** What json.Unmarshal into a map[string]interface{} says about these bytes, or null when it takes them. */
function jsonObjectError(bytes: Uint8Array): string | null {
  const syntax = goJsonSyntaxError(bytes)
  if (syntax !== null) return syntax
  const text = new TextDecoder().decode(bytes).trim()
  const c = text[0]
  if (c === '{' || text === 'null') return null
  const kind = c === '"' ? 'string' : c === '[' ? 'array' : c === 't' || c === 'f' ? 'bool' : 'number'
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`
}

/** A docker config key must be present and hold a JSON object. */
function validateDockerConfig(data: Record<string, string>, key: string): FieldError[] {
  if (!Object.hasOwn(data, key)) return [fieldError.required(dataKey(key))]
  const problem = jsonObjectError(decodeBase64(data[key]!))
  return problem === null ? [] : [fieldError.invalid(dataKey(key), REDACTED, problem)]
}

/** ValidateSecret without the metadata (the generic store validates that). */
function validateSecret(secret: SecretObject): FieldError[] {
  const data = secret.data ?? {}
  const errs = validateKeys(data, 'data')
  let size = 0
  for (const value of Object.values(data)) size += decodedLength(value)
  if (size > MAX_DATA_SIZE) errs.push(tooLarge('data'))
  const has = (k: string) => Object.hasOwn(data, k)
  switch (secret.type) {
    case SecretType.ServiceAccountToken:
      // Only the account's name is required: its uid and the token are filled in by a controller.
      if (!secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_KEY])
        errs.push(fieldError.required(`metadata.annotations[${SERVICE_ACCOUNT_NAME_KEY}]`))
      break
    case SecretType.Dockercfg:
      errs.push(...validateDockerConfig(data, '.dockercfg'))
      break
    case SecretType.DockerConfigJson:
      errs.push(...validateDockerConfig(data, '.dockerconfigjson'))
      break
    case SecretType.BasicAuth:
      // Either may be empty or absent, but not both absent.
      if (!has('username') && !has('password'))
        errs.push(fieldError.required(dataKey('username')), fieldError.required(dataKey('password')))
      break
    case SecretType.SSHAuth:
      if (decodedLength(data['ssh-privatekey'] ?? '') === 0) errs.push(fieldError.required(dataKey('ssh-privatekey')))
      break
    case SecretType.TLS:
      if (!has('tls.crt')) errs.push(fieldError.required(dataKey('tls.crt')))
      if (!has('tls.key')) errs.push(fieldError.required(dataKey('tls.key')))
      break
    default:
      // Opaque, bootstrap tokens (checked by the bootstrap signer, not the API) and any custom type: anything goes.
      break
  }
  return errs
}

/**
 * SetDefaults_Secret (type Opaque) and Convert_v1_Secret_To_core_Secret: each stringData value becomes the data value
 * of its key (stringData wins), and stringData itself is gone before anything is validated or stored.
 */
function applySecretDefaults(secret: SecretObject) {
  if (!secret.type) secret.type = SecretType.Opaque
  const plain = secret.stringData
  if (plain === undefined) return
  delete secret.stringData
  if (Object.keys(plain).length === 0) return
  const data = (secret.data ??= {})
  for (const [k, v] of Object.entries(plain)) data[k] = base64OfText(v)
}

export const secretStrategy: Strategy<SecretObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults: applySecretDefaults,
  prepareForCreate: () => undefined,
  validate: validateSecret,
  prepareForUpdate: () => undefined,
  validateUpdate(secret, old) {
    const errs: FieldError[] = []
    if ((secret.type ?? '') !== (old.type ?? ''))
      errs.push(fieldError.invalid('type', secret.type ?? '', FIELD_IMMUTABLE_ERROR_MSG))
    // stringData needs no check of its own: it is already in data.
    errs.push(...validateImmutableData(secret, old, ['data']))
    return [...errs, ...validateSecret(secret)]
  },
  selectableFields: (s) => ({
    'metadata.name': s.metadata.name ?? '',
    'metadata.namespace': s.metadata.namespace ?? '',
    type: s.type ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace', 'type'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      {
        name: 'Type',
        type: 'string',
        format: '',
        description:
          'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
        priority: 0,
      },
      {
        name: 'Data',
        type: 'string',
        format: '',
        description:
          "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
        priority: 0,
      },
      AGE_COLUMN,
    ],
    cells: (s, now) => [
      s.metadata.name,
      s.type ?? '',
      Object.keys(s.data ?? {}).length,
      age(s.metadata.creationTimestamp, now),
    ],
  },
}
