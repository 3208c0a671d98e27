// The whole hostile sweep against a custom resource: a CRD with a typed schema (strings with patterns and lengths,
// integers with bounds, booleans, enums, lists, nested objects, int-or-string, a preserved subtree) and /status and
// /scale is installed, found through discovery like any kind, and every sweep runs on it. Custom resources take no
// strategic merge patch (415) and answer schema errors with 422.
import { describe, expect, it } from 'vitest'
import { makeNamespace } from '../../helpers'
import { crd, freshGroup, install } from '../../support/crds'
import { registerExample } from './fixtures'
import { KNOWN_BUGS } from './known-bug-ids'
import { Findings, send } from './refusal'
import { servedResources } from './served'
import { storeExample } from './stored-object'
import { sweepCreates } from './sweep-creates'
import { sweepMethods } from './sweep-methods'
import { sweepPatches } from './sweep-patches'
import { sweepQueries } from './sweep-queries'
import { sweepSubresources } from './sweep-subresources'
import { sweepTypes } from './sweep-types'
import { sweepUpdates } from './sweep-updates'

const group = freshGroup('hostile')
const spec = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: '^[a-z]+$', maxLength: 20 },
    replicas: { type: 'integer', minimum: 0, maximum: 10 },
    enabled: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'slow'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    port: { 'x-kubernetes-int-or-string': true },
    nested: { type: 'object', properties: { depth: { type: 'integer' }, note: { type: 'string' } } },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
}
await install(
  crd(group, {
    plural: 'hostiles',
    kind: 'Hostile',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec,
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
      },
    ],
  }),
)
registerExample('Hostile', () => ({
  spec: {
    name: 'abc',
    replicas: 1,
    enabled: true,
    mode: 'fast',
    tags: ['a'],
    port: 80,
    nested: { depth: 1, note: 'n' },
    free: { any: ['thing'] },
  },
}))
const found = (await servedResources()).find((r) => r.groupVersion === `${group}/v1` && r.resource === 'hostiles')
const s = found && { ...found, custom: true }
const ns = await makeNamespace('hostile-cr')

describe.concurrent('the hostile sweep against a custom resource', () => {
  it('is served through discovery with /status and /scale', () => {
    expect(s?.subresources.map((x) => x.name).sort()).toEqual(['scale', 'status'])
  })

  it('create bodies', async () => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepCreates(s!, ns, findings)
    findings.expectNone()
  })

  // The preserved subtree takes any JSON; port is an int-or-string.
  it('wrong types and nulls at every field', async () => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepTypes(s!, ns, findings, [/^spec\.free(\.|\[|$)/, /^spec\.port$/])
    findings.expectNone()
  })

  it('patches of every type (strategic merge: 415)', async () => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepPatches(s!, ns, findings)
    const { item } = await storeExample(s!, ns, 'smp')
    const smp = { 'content-type': 'application/strategic-merge-patch+json' }
    await findings.send('hostiles strategic 415', 'PATCH', item, '{"spec":{"name":"x"}}', smp, { codes: [415] })
    findings.expectNone()
  })

  it('query parameters and delete options', async () => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepQueries(s!, ns, findings)
    findings.expectNone()
  })

  it('replace bodies, of the object and of /status', async () => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepUpdates(s!, ns, findings)
    await sweepUpdates(s!, ns, findings, 'status')
    findings.expectNone()
  })

  it('methods no verb serves', async () => {
    const findings = new Findings(KNOWN_BUGS)
    await sweepMethods(s!, ns, findings)
    findings.expectNone()
  })

  it('/status and /scale', async () => {
    const findings = new Findings(KNOWN_BUGS)
    const renew = () => storeExample(s!, ns, 'sub')
    await sweepSubresources(s!, await renew(), findings, renew)
    findings.expectNone()
  })

  // Values the schema refuses, each a 422 naming the field; the stored object is untouched.
  it('schema violations: 422 for each', async () => {
    const findings = new Findings(KNOWN_BUGS)
    const { item, baseline } = await storeExample(s!, ns, 'schema')
    const bad: [string, Record<string, unknown>][] = [
      ['pattern', { name: 'UPPER' }],
      ['max-length', { name: 'a'.repeat(21) }],
      ['minimum', { replicas: -1 }],
      ['maximum', { replicas: 11 }],
      ['enum', { mode: 'medium' }],
      ['max-items', { tags: ['a', 'b', 'c', 'd', 'e', 'f'] }],
      ['int-or-string-bool', { port: true }],
      ['required', { name: null }],
      ['huge-integer', { replicas: 1e300 }],
      ['nested-wrong-type', { nested: { depth: 'deep' } }],
    ]
    for (const [id, change] of bad) {
      const r = await findings.send(
        `hostiles schema ${id}`,
        'PATCH',
        item,
        { spec: change },
        { 'content-type': 'application/merge-patch+json' },
        { codes: [400, 422] },
      )
      expect(r.status, `${id}: ${r.text}`).not.toBe(200)
    }
    const after = await send('GET', item)
    expect(after.json.spec).toEqual(baseline.spec)
    findings.expectNone()
  })
})
