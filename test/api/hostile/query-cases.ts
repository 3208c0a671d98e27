// Hostile query parameters for list, watch, get, delete and deletecollection: garbage selectors, numbers, tokens,
// resource versions and options. kube answers a parameter it cannot convert with 400 (ParameterCodec), options it
// validates with 422 (ListOptions / DeleteOptions invalid), and reads any boolean but 0, f and false as true.
import type { Expect } from './refusal'

export interface QueryCase {
  id: string
  query: string
  want: Expect
}

const BAD = { codes: [400] }
const INVALID = { codes: [422] }
const TAKEN = { accept: true, codes: [400, 422] }
const q = (id: string, query: string, want: Expect): QueryCase => ({ id, query, want })
const enc = encodeURIComponent

/** Query garbage for a list (GET on the collection); `watch` adds watch=1 to each. */
export function listCases(watch: boolean): QueryCase[] {
  const w = watch ? '&watch=1' : ''
  return [
    q('label-selector-unclosed', `?labelSelector=${enc('a in (b')}${w}`, BAD),
    q('label-selector-bangs', `?labelSelector=${enc('!!a')}${w}`, BAD),
    q('label-selector-double-equals', `?labelSelector=${enc('a=b=c')}${w}`, BAD),
    q('label-selector-value-70', `?labelSelector=${enc(`a=${'v'.repeat(70)}`)}${w}`, BAD),
    q(
      'label-selector-100kb',
      `?labelSelector=${enc(Array.from({ length: 5000 }, (_, i) => `k${i}=v`).join(','))}${w}`,
      TAKEN,
    ),
    q('field-selector-no-operator', `?fieldSelector=a${w}`, BAD),
    q('field-selector-empty-key', `?fieldSelector=${enc('=x')}${w}`, BAD),
    q('field-selector-unsupported', `?fieldSelector=${enc('spec.hostileNope=x')}${w}`, BAD),
    q('field-selector-set', `?fieldSelector=${enc('metadata.name in (a)')}${w}`, BAD),
    q('limit-negative', `?limit=-1${w}`, TAKEN),
    q('limit-garbage', `?limit=abc${w}`, BAD),
    q('limit-huge', `?limit=99999999999999999999999${w}`, BAD),
    // A watch has no use for a continue token: kube ignores it there.
    q('continue-garbage', `?limit=1&continue=${enc('!!not-a-token!!')}${w}`, { accept: watch, codes: [400, 422] }),
    q('continue-base64-garbage', `?limit=1&continue=${btoa('{"v":"meta.k8s.io/v1","rv":-5,"start":"x"}')}${w}`, {
      accept: watch,
      codes: [400, 410, 422],
    }),
    q('resource-version-garbage', `?resourceVersion=garbage${w}`, { codes: [400, 422] }),
    q('resource-version-negative', `?resourceVersion=-1${w}`, { codes: [400, 422] }),
    q('resource-version-match-bogus', `?resourceVersion=1&resourceVersionMatch=Bogus${w}`, watch ? TAKEN : INVALID),
    q('resource-version-match-without-rv', `?resourceVersionMatch=NotOlderThan${w}`, watch ? TAKEN : INVALID),
    q('timeout-garbage', `?timeoutSeconds=abc${w}`, BAD),
    q('timeout-negative', `?timeoutSeconds=-1${w}`, TAKEN),
    q('send-initial-events-garbage', `?sendInitialEvents=maybe${w}`, { accept: true, codes: [400, 422] }),
    q('allow-bookmarks-garbage', `?allowWatchBookmarks=maybe${w}`, TAKEN),
    q('pretty-garbage', `?pretty=maybe${w}`, TAKEN),
    q('repeated-params', `?limit=1&limit=2&labelSelector=a&labelSelector=${enc('!!')}${w}`, TAKEN),
    q('nul-in-selector', `?labelSelector=a%00b${w}`, BAD),
  ]
}

/** Query garbage for a get of a stored object. */
export function getCases(): QueryCase[] {
  return [
    q('resource-version-garbage', '?resourceVersion=garbage', { codes: [400, 422] }),
    q('resource-version-huge', '?resourceVersion=99999999999999999999999', { codes: [400, 422] }),
    q('export', '?export=true', { accept: true, codes: [400] }),
    q('pretty-garbage', '?pretty=maybe', TAKEN),
  ]
}

/** Options kube refuses on a delete (the object must survive each). */
export function deleteCases(): QueryCase[] {
  return [
    q('propagation-policy-garbage', '?propagationPolicy=Sometimes', INVALID),
    q('orphan-and-propagation', '?orphanDependents=true&propagationPolicy=Foreground', INVALID),
    q('grace-period-garbage', '?gracePeriodSeconds=soon', BAD),
    q('grace-period-huge', '?gracePeriodSeconds=99999999999999999999999', BAD),
    q('grace-period-fraction', '?gracePeriodSeconds=1.5', BAD),
    q('dry-run-bogus', '?dryRun=Bogus', INVALID),
  ]
}

/** DeleteOptions bodies kube refuses (the object must survive each). */
export function deleteBodies(uid: string): { id: string; body: string; want: Expect }[] {
  const b = (id: string, body: unknown, want: Expect) => ({
    id,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    want,
  })
  return [
    b('body-unreadable', '{"kind":', BAD),
    b('body-array', '[]', BAD),
    b('body-wrong-kind', { apiVersion: 'v1', kind: 'Pod' }, BAD),
    b('body-grace-string', { gracePeriodSeconds: 'soon' }, BAD),
    b('body-propagation-garbage', { propagationPolicy: 'Sometimes' }, INVALID),
    b(
      'body-uid-precondition',
      { preconditions: { uid: `${uid.slice(0, -1)}${uid.endsWith('0') ? '1' : '0'}` } },
      {
        codes: [409],
      },
    ),
    b('body-rv-precondition', { preconditions: { resourceVersion: '1' } }, { codes: [409] }),
    b('body-preconditions-wrong-type', { preconditions: 'x' }, BAD),
  ]
}
