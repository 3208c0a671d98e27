// The options of a write, read as kube's handlers read them (the parameter codec over the query; for a delete, the
// DeleteOptions body when there is one, else the query) and validated before anything else is decoded
// (registry/validation/meta-options.ts): create, update, patch and delete options, each refused as its own kind.
import type { Context } from 'hono'
import type { FieldValidation } from '../registry/decode'
import { decodeObject } from '../registry/decode'
import { defaultManager } from '../registry/managed-fields/managers'
import { StatusError } from '../registry/status'
import {
  invalidOptions,
  type OptionsKind,
  validateDeleteOptions,
  validatePatchOptions,
  validateWriteOptions,
  type WriteOptionValues,
} from '../registry/validation/meta-options'
import { DeleteOptions } from '../schema/meta'
import { objectContentType, readBodyText } from './body'
import { int64Param, optionalQueryFlag } from './query'

/** A create, update or patch's options once valid. */
export interface WriteOptions {
  dryRun: boolean
  /** The fieldManager parameter, else the user agent's name. */
  fieldManager: string
  fieldValidation: FieldValidation
}

/** The parameter codec's reading: every dryRun value, the first value of the string parameters ('' when absent). */
function queryValues(c: Context): WriteOptionValues {
  return {
    dryRun: c.req.queries('dryRun') ?? [],
    fieldManager: c.req.query('fieldManager') ?? '',
    fieldValidation: c.req.query('fieldValidation') ?? '',
  }
}

function accepted(c: Context, v: WriteOptionValues): WriteOptions {
  return {
    dryRun: v.dryRun.length > 0,
    fieldManager: v.fieldManager || defaultManager(c.req.header('user-agent')),
    // The handlers' fieldValidation(): unset means Warn.
    fieldValidation: (v.fieldValidation || 'Warn') as FieldValidation,
  }
}

function refuseIfInvalid(kind: OptionsKind, errors: ReturnType<typeof validateWriteOptions>) {
  if (errors.length > 0) throw new StatusError(invalidOptions(kind, errors))
}

/** CreateOptions (POST: creates, reviews, evictions), or kube's 422 CreateOptions. */
export function createOptions(c: Context): WriteOptions {
  const v = queryValues(c)
  refuseIfInvalid('CreateOptions', validateWriteOptions(v))
  return accepted(c, v)
}

/** UpdateOptions (PUT, subresources included), or kube's 422 UpdateOptions. */
export function updateOptions(c: Context): WriteOptions {
  const v = queryValues(c)
  refuseIfInvalid('UpdateOptions', validateWriteOptions(v))
  return accepted(c, v)
}

/** PatchOptions for a patch (`apply`: a server-side apply), or kube's 422 PatchOptions. */
export function patchOptions(c: Context, apply: boolean): WriteOptions & { force: boolean } {
  const v = { ...queryValues(c), force: optionalQueryFlag(c, 'force') }
  refuseIfInvalid('PatchOptions', validatePatchOptions(v, apply))
  return { ...accepted(c, v), force: v.force ?? false }
}

/**
 * DeleteOptions as kube's delete handler reads them: from the body when one is sent (what kubectl and client-go
 * send; the query is then not read), else from the query (what curl users send: gracePeriodSeconds, propagationPolicy,
 * orphanDependents, dryRun, and uid / resourceVersion as preconditions); then ValidateDeleteOptions.
 */
export async function deleteOptions(c: Context): Promise<DeleteOptions> {
  const text = await readBodyText(c)
  const opts = text.trim() === '' ? queryDeleteOptions(c) : bodyDeleteOptions(c, text)
  // ignoreStoreReadErrorWithClusterBreakingPotential: kube clears it while its feature gate is off (1.33: alpha).
  delete opts.ignoreStoreReadErrorWithClusterBreakingPotential
  const errors = validateDeleteOptions(opts)
  if (errors.length > 0) throw new StatusError(invalidOptions('DeleteOptions', errors))
  return opts
}

/** What the body says (decoded leniently, as kube's codec decodes DeleteOptions: unknown fields are dropped). */
function bodyDeleteOptions(c: Context, text: string): DeleteOptions {
  const target = { schema: DeleteOptions, group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' }
  const format = objectContentType(c).includes('yaml') ? 'yaml' : 'json'
  return decodeObject<DeleteOptions>(target, { format, text }, 'Ignore').value
}

/** Convert_url_Values_To_v1_DeleteOptions: a parameter present with an empty value is still present. */
function queryDeleteOptions(c: Context): DeleteOptions {
  const q = (k: string) => c.req.query(k)
  const opts: DeleteOptions = {}
  const grace = q('gracePeriodSeconds')
  if (grace !== undefined) opts.gracePeriodSeconds = int64Param(grace)
  const orphan = optionalQueryFlag(c, 'orphanDependents')
  if (orphan !== undefined) opts.orphanDependents = orphan
  // Any string: ValidateDeleteOptions judges it.
  const policy = q('propagationPolicy')
  if (policy !== undefined) opts.propagationPolicy = policy as DeleteOptions['propagationPolicy']
  const dryRun = c.req.queries('dryRun')
  if (dryRun) opts.dryRun = dryRun
  const uid = q('uid') ?? ''
  const resourceVersion = q('resourceVersion') ?? ''
  if (uid !== '' || resourceVersion !== '') {
    opts.preconditions = { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) }
  }
  return opts
}
