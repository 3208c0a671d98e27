// What ConfigMaps and Secrets share: key rules (apimachinery's IsConfigMapKey), the 1 MiB data limit
// (core.MaxSecretSize), kube's `immutable` rule, and the table columns both print.
import { CREATION_DOC, NAME_DOC } from '../../table-column-docs'
import { compareUtf8 } from '../../go-strings'
import { deepEqual } from '../../deep-equal'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { byteLength, maxLenError, regexError } from '../../validation/names'

/** core.MaxSecretSize: the most bytes of data a Secret (and a ConfigMap, data and binaryData together) may hold. */
export const MAX_DATA_SIZE = 1024 * 1024

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+'
const CONFIG_MAP_KEY_RE = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`)
const CONFIG_MAP_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"

/** IsConfigMapKey: the key of a ConfigMap or Secret entry (a file name when mounted). */
export function isConfigMapKey(key: string): string[] {
  const errs: string[] = []
  if (byteLength(key) > 253) errs.push(maxLenError(253))
  if (!CONFIG_MAP_KEY_RE.test(key))
    errs.push(regexError(CONFIG_MAP_KEY_MSG, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'))
  // hasChDirPrefix
  if (key === '.') errs.push("must not be '.'")
  else if (key === '..') errs.push("must not be '..'")
  else if (key.startsWith('..')) errs.push("must not start with '..'")
  return errs
}

/**
 * Keys of a map in byte order. Go ranges over maps in random order, so kube reports bad keys in no fixed order;
 * we report them sorted.
 */
export const sortedKeys = (m: Record<string, unknown> | undefined): string[] => Object.keys(m ?? {}).sort(compareUtf8)

/** One Invalid error per message IsConfigMapKey has for each key of `m`, at `<path>[<key>]`. */
export function validateKeys(m: Record<string, unknown> | undefined, path: string): FieldError[] {
  const at = new FieldPath(path)
  return sortedKeys(m).flatMap((k) => isConfigMapKey(k).map((msg) => fieldError.invalid(at.key(k).toString(), k, msg)))
}

const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set'

/**
 * ValidateConfigMapUpdate's and ValidateSecretUpdate's rule: once `immutable` is true it stays true and the data
 * fields keep their values. An absent map and an empty one are the same data (storage keeps neither).
 */
export function validateImmutableData(
  obj: { immutable?: boolean } & Record<string, unknown>,
  old: { immutable?: boolean } & Record<string, unknown>,
  fields: readonly string[],
): FieldError[] {
  if (old.immutable !== true) return []
  const errs: FieldError[] = []
  if (obj.immutable !== true) errs.push(fieldError.forbidden('immutable', IMMUTABLE_WHEN_SET))
  for (const f of fields) {
    if (!deepEqual(obj[f] ?? {}, old[f] ?? {})) errs.push(fieldError.forbidden(f, IMMUTABLE_WHEN_SET))
  }
  return errs
}

/** The data is over 1 MiB: field.TooLong at `field` ('[]', the whole object, for ConfigMaps; 'data' for Secrets). */
export const tooLarge = (field: string): FieldError => fieldError.tooLong(field, MAX_DATA_SIZE)

/** The Name and Age columns every table here has, with kube's descriptions (ObjectMeta's swagger docs). */
export const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: NAME_DOC,
  priority: 0,
} as const
export const AGE_COLUMN = {
  name: 'Age',
  type: 'string',
  format: '',
  description: CREATION_DOC,
  priority: 0,
} as const
