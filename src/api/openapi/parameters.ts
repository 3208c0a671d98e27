// The query and path parameters kube's OpenAPI operations declare, worded for kubeflare: each one (P), and the sets
// lists, watches, writes, deletes and pod logs take (kubectl reads fieldValidation from PATCH's to validate
// server-side).
import type { Json } from './components'

export const param = (
  name: string,
  where: 'query' | 'path',
  type: string,
  description: string,
  required = false,
): Json => ({
  name,
  in: where,
  description,
  ...(required ? { required: true } : {}),
  schema: { type, uniqueItems: true },
})
const q = (name: string, type: string, description: string) => param(name, 'query', type, description)

export const P = {
  allowWatchBookmarks: q(
    'allowWatchBookmarks',
    'boolean',
    'Ask a watch to send BOOKMARK events carrying the latest resourceVersion',
  ),
  continue: q('continue', 'string', 'Token from the previous page of a paged list'),
  dryRun: q('dryRun', 'string', 'All: validate and answer as if the change were made, without persisting it'),
  fieldManager: q('fieldManager', 'string', 'Name of the actor making the change, recorded in managedFields'),
  fieldSelector: q('fieldSelector', 'string', 'Select objects by fields, such as metadata.name=web'),
  fieldValidation: q(
    'fieldValidation',
    'string',
    'Ignore, Warn or Strict: how to treat unknown and duplicate fields in the body',
  ),
  force: q('force', 'boolean', 'Apply patches only: take ownership of fields other managers own'),
  gracePeriodSeconds: q('gracePeriodSeconds', 'integer', 'Seconds before the object is deleted; 0 deletes immediately'),
  ignoreStoreReadError: q(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'Delete an object that cannot be read from storage',
  ),
  labelSelector: q('labelSelector', 'string', 'Select objects by labels, such as app=web,tier!=db'),
  limit: q('limit', 'integer', 'Most objects to return in one page'),
  orphanDependents: q('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy'),
  pretty: q('pretty', 'string', 'true: indent the JSON response'),
  propagationPolicy: q(
    'propagationPolicy',
    'string',
    'Orphan, Background or Foreground: how dependents are garbage-collected',
  ),
  resourceVersion: q('resourceVersion', 'string', 'The version to read at or to watch from'),
  resourceVersionMatch: q(
    'resourceVersionMatch',
    'string',
    'Exact or NotOlderThan: how resourceVersion applies to a list',
  ),
  sendInitialEvents: q('sendInitialEvents', 'boolean', 'Start a watch with ADDED events for the current objects'),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'Seconds after which a list or watch ends'),
  watch: q('watch', 'boolean', 'Stream changes instead of returning a list'),
}
export const LOG = [
  q('container', 'string', 'Container to read; required when the pod has more than one'),
  q('follow', 'boolean', 'Keep streaming as the container writes'),
  q('insecureSkipTLSVerifyBackend', 'boolean', 'Skip verifying the kubelet certificate'),
  q('limitBytes', 'integer', 'Most bytes to return'),
  q('previous', 'boolean', 'Read the previous, terminated run of the container'),
  q('sinceSeconds', 'integer', 'Only lines newer than this many seconds'),
  q('tailLines', 'integer', 'Only the last this many lines'),
  q('timestamps', 'boolean', 'Prefix every line with its RFC 3339 timestamp'),
]

export const LIST = [
  P.allowWatchBookmarks,
  P.continue,
  P.fieldSelector,
  P.labelSelector,
  P.limit,
  P.resourceVersion,
  P.resourceVersionMatch,
  P.sendInitialEvents,
  P.timeoutSeconds,
  P.watch,
]
export const WRITE = [P.dryRun, P.fieldManager, P.fieldValidation]
export const DELETE = [P.dryRun, P.gracePeriodSeconds, P.ignoreStoreReadError, P.orphanDependents, P.propagationPolicy]
export const DELETE_COLLECTION = [
  P.continue,
  P.dryRun,
  P.fieldSelector,
  P.gracePeriodSeconds,
  P.ignoreStoreReadError,
  P.labelSelector,
  P.limit,
  P.orphanDependents,
  P.propagationPolicy,
  P.resourceVersion,
  P.resourceVersionMatch,
  P.sendInitialEvents,
  P.timeoutSeconds,
]
