// The update sweep of one resource: hostile replace bodies (PUT) of a stored object: unreadable text, other kinds,
// renames, resourceVersions kube cannot parse or that are stale, foreign uids, strict decoding, sizes, media types,
// options. The object must read as it was after each.
import { nested } from './bodies'
import type { Expect, Findings } from './refusal'
import type { Served } from './served'
import { expectUnchanged, storeExample } from './stored-object'

const JSON_CT = { 'content-type': 'application/json' }
const BAD = { codes: [400] }
const INVALID = { codes: [422] }
const CONFLICT = { codes: [409] }

interface UpdateCase {
  id: string
  body: string
  headers?: Record<string, string>
  query?: string
  want: Expect
}

/** `status`: the body goes to /status, where what is kept of a metadata change differs by kind. */
function updateCases(o: any, status: boolean): UpdateCase[] {
  const text = JSON.stringify(o)
  const j = (id: string, v: any, want: Expect, query?: string): UpdateCase => ({
    id,
    body: JSON.stringify(v),
    want,
    query,
  })
  const meta = (extra: Record<string, unknown>) => ({ ...o, metadata: { ...o.metadata, ...extra } })
  return [
    { id: 'truncated', body: text.slice(0, text.length >> 1), want: BAD },
    { id: 'empty', body: '', want: BAD },
    { id: 'array', body: `[${text}]`, want: BAD },
    { id: 'yaml-garbage', body: 'metadata: [\n', headers: { 'content-type': 'application/yaml' }, want: BAD },
    { id: 'depth-20000', body: `${text.slice(0, -1)},"x":${nested(20000)}}`, want: BAD },
    j('kind-other', { ...o, kind: o.kind === 'ConfigMap' ? 'Secret' : 'ConfigMap' }, BAD),
    j('apiversion-unknown', { ...o, apiVersion: 'v9' }, BAD),
    // handlers/update.go: checkName's 400 for a body naming another object or namespace.
    j('rename', meta({ name: 'someone-else' }), BAD),
    ...(o.metadata.namespace ? [j('other-namespace', meta({ namespace: 'someone-else' }), BAD)] : []),
    // kube answers 500 here (strconv error its storage never converts); the project answers 400 with kube's message.
    j('resource-version-garbage', meta({ resourceVersion: 'garbage' }), BAD),
    j('resource-version-stale', meta({ resourceVersion: '1' }), CONFLICT),
    j('uid-foreign', meta({ uid: '00000000-0000-0000-0000-000000000000' }), { codes: [409, 422] }),
    j('metadata-string', { ...o, metadata: 'x' }, BAD),
    j('labels-array', meta({ labels: ['x'] }), BAD),
    j('label-value-70', meta({ labels: { a: 'v'.repeat(70) } }), status ? { accept: true, codes: [422] } : INVALID),
    j('unknown-field-strict', { ...o, hostileField: 1 }, BAD, '?fieldValidation=Strict'),
    j('field-manager-129', meta({ labels: { a: 'b' } }), INVALID, `?fieldManager=${'m'.repeat(129)}`),
    j('dry-run-bogus', meta({ labels: { a: 'b' } }), INVALID, '?dryRun=Bogus'),
    j('over-3mib', { ...o, hostileField: 'x'.repeat(3 * 1024 * 1024 + 16) }, { codes: [413] }),
    { id: 'content-type-text', body: text, headers: { 'content-type': 'text/plain' }, want: { codes: [415] } },
    {
      id: 'content-type-merge-patch',
      body: text,
      headers: { 'content-type': 'application/merge-patch+json' },
      want: { codes: [415] },
    },
  ]
}

/** `sub`: the subresource replaced (status), or none for the object itself. */
export async function sweepUpdates(s: Served, ns: string, findings: Findings, sub?: string) {
  const { item, baseline } = await storeExample(s, ns, sub ? `update-${sub}` : 'update')
  let current = baseline
  const target = sub ? `${item}/${sub}` : item
  const count = updateCases(baseline, sub !== undefined).length
  for (let i = 0; i < count; i++) {
    // Built from the object as it now is, so a controller's write in between is no conflict.
    const c = updateCases(current, sub !== undefined)[i]!
    const id = `${s.resource} ${sub ? `${sub}-update` : 'update'} ${c.id}`
    await findings.send(id, 'PUT', target + (c.query ?? ''), c.body, c.headers ?? JSON_CT, c.want)
    current = await expectUnchanged(findings, id, item, current)
  }
}
