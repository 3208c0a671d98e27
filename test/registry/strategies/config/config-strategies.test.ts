// ConfigMap and Secret strategies through the pure store, table-driven against kube 1.33's ValidateConfigMap,
// ValidateSecret and their updates (pkg/apis/core/validation): whole Status messages, every cause.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result, Status } from '../../../../src/registry/status'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
const b64 = (s: string) => btoa(s)

const cm = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'default' },
    ...data,
    ...extra,
  }) as KubeObject
const secret = (type: string | undefined, data: Record<string, string>, extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'default' },
    ...(type ? { type } : {}),
    data,
    ...extra,
  }) as KubeObject

function create(plural: string, body: KubeObject): Result<{ object: KubeObject }> {
  return planCreate(resourceByPlural(plural)!, ctx, structuredClone(body), () => false) as Result<{
    object: KubeObject
  }>
}
function stored(plural: string, body: KubeObject): Stored {
  const r = create(plural, body)
  if (!r.ok) throw new Error(r.status.message)
  r.value.object.metadata.resourceVersion = '5'
  return { rv: 5, object: r.value.object }
}
const update = (plural: string, current: Stored, body: KubeObject) =>
  planUpdate(resourceByPlural(plural)!, ctx, current.object.metadata.name!, structuredClone(body), current)
function refusal(r: Result<unknown>): Status {
  if (r.ok) throw new Error('expected a refusal')
  return r.status
}

describe('ConfigMap validation (ValidateConfigMap)', () => {
  const cases: [string, KubeObject, string | null][] = [
    ['text and bytes', cm({ data: { 'a.conf': 'x=1' }, binaryData: { bin: b64('\u0001\u0002') } }), null],
    [
      'a key with a space',
      cm({ data: { 'bad key': 'x' } }),
      `ConfigMap "c" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ],
    [
      '. is not a key',
      cm({ data: { '.': 'x' } }),
      `ConfigMap "c" is invalid: data[.]: Invalid value: ".": must not be '.'`,
    ],
    [
      '..x is not a key',
      cm({ binaryData: { '..x': 'eA==' } }),
      `ConfigMap "c" is invalid: binaryData[..x]: Invalid value: "..x": must not start with '..'`,
    ],
    [
      'a key in both maps',
      cm({ data: { k: 'x' }, binaryData: { k: 'eA==' } }),
      'ConfigMap "c" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData',
    ],
    [
      'a key of 254 characters',
      cm({ data: { ['k'.repeat(254)]: 'x' } }),
      `ConfigMap "c" is invalid: data[${'k'.repeat(254)}]: Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters`,
    ],
    [
      'over 1 MiB in all',
      cm({ data: { a: 'x'.repeat(600_000) }, binaryData: { b: btoa('y'.repeat(500_000)) } }),
      'ConfigMap "c" is invalid: []: Too long: may not be more than 1048576 bytes',
    ],
    ['exactly 1 MiB', cm({ data: { a: 'x'.repeat(1024 * 1024) } }), null],
  ]
  for (const [name, body, message] of cases) {
    it(name, () => {
      const r = create('configmaps', body)
      if (message === null) expect(r.ok, r.ok ? '' : r.status.message).toBe(true)
      else expect(refusal(r).message).toBe(message)
    })
  }

  it('the size limit is one cause at field "[]"', () => {
    const s = refusal(create('configmaps', cm({ data: { a: 'x'.repeat(1024 * 1024 + 1) } })))
    expect(s.details?.causes).toEqual([
      { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: '[]' },
    ])
  })
})

describe('ConfigMap immutability (ValidateConfigMapUpdate)', () => {
  const frozen = () => stored('configmaps', cm({ data: { a: '1' }, binaryData: { b: 'eA==' }, immutable: true }))
  it('data, binaryData and immutable itself are frozen; each is one Forbidden cause', () => {
    const s = refusal(update('configmaps', frozen(), cm({ data: { a: '2' }, binaryData: {}, immutable: false })))
    expect(s.message).toBe(
      'ConfigMap "c" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set, binaryData: Forbidden: field is immutable when `immutable` is set]',
    )
  })
  it('metadata still changes, and an unset immutable may become true', () => {
    const f = frozen()
    const r = update('configmaps', f, { ...f.object, metadata: { ...f.object.metadata, labels: { x: 'y' } } })
    expect(r.ok).toBe(true)
    const open = stored('configmaps', cm({ data: { a: '1' } }))
    expect(update('configmaps', open, cm({ data: { a: '2' }, immutable: true })).ok).toBe(true)
  })
})

describe('Secret defaults and stringData', () => {
  it('type defaults to Opaque; stringData is merged into data (winning) and never stored', () => {
    const r = create(
      'secrets',
      secret(undefined, { a: b64('old'), b: b64('kept') }, { stringData: { a: 'new', c: 'é' } }),
    )
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.object.type).toBe('Opaque')
    expect(r.value.object.stringData).toBeUndefined()
    expect(r.value.object.data).toEqual({ a: b64('new'), b: b64('kept'), c: 'w6k=' })
  })
  it('an update through stringData changes data', () => {
    const s = stored('secrets', secret('Opaque', { a: b64('1') }))
    const r = update('secrets', s, { ...s.object, stringData: { a: '2' } })
    if (!r.ok) throw new Error(r.status.message)
    expect((r.value as { object: KubeObject }).object.data).toEqual({ a: b64('2') })
  })
})

describe('Secret validation by type (ValidateSecret)', () => {
  const head = 'Secret "s" is invalid: '
  const cases: [string, KubeObject, string | null][] = [
    ['Opaque takes anything', secret('Opaque', { any: b64('x') }), null],
    ['a custom type takes anything', secret('example.com/custom', {}), null],
    ['a bootstrap token is not checked by the API', secret('bootstrap.kubernetes.io/token', {}), null],
    [
      'a service account token needs the account name annotation',
      secret('kubernetes.io/service-account-token', {}),
      `${head}metadata.annotations[kubernetes.io/service-account.name]: Required value`,
    ],
    [
      'service account token with the annotation',
      secret(
        'kubernetes.io/service-account-token',
        {},
        { metadata: { name: 's', annotations: { 'kubernetes.io/service-account.name': 'default' } } },
      ),
      null,
    ],
    ['dockercfg needs .dockercfg', secret('kubernetes.io/dockercfg', {}), `${head}data[.dockercfg]: Required value`],
    [
      'dockercfg must be JSON',
      secret('kubernetes.io/dockercfg', { '.dockercfg': b64('{nope') }),
      `${head}data[.dockercfg]: Invalid value: "<secret contents redacted>": invalid character 'n' looking for beginning of object key string`,
    ],
    [
      'dockerconfigjson needs .dockerconfigjson',
      secret('kubernetes.io/dockerconfigjson', {}),
      `${head}data[.dockerconfigjson]: Required value`,
    ],
    [
      'dockerconfigjson must be a JSON object',
      secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('[1]') }),
      `${head}data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}`,
    ],
    [
      'dockerconfigjson cut short',
      secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('{"auths":') }),
      `${head}data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input`,
    ],
    [
      'dockerconfigjson valid',
      secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('{"auths":{}}') }),
      null,
    ],
    [
      'basic-auth needs username or password',
      secret('kubernetes.io/basic-auth', {}),
      `${head}[data[username]: Required value, data[password]: Required value]`,
    ],
    ['basic-auth with an empty password only', secret('kubernetes.io/basic-auth', { password: '' }), null],
    [
      'ssh-auth needs a non-empty ssh-privatekey',
      secret('kubernetes.io/ssh-auth', { 'ssh-privatekey': '' }),
      `${head}data[ssh-privatekey]: Required value`,
    ],
    [
      'tls needs tls.crt and tls.key',
      secret('kubernetes.io/tls', { 'tls.crt': b64('c') }),
      `${head}data[tls.key]: Required value`,
    ],
    [
      'keys follow the ConfigMap rule',
      secret('Opaque', { 'a/b': b64('x') }),
      `${head}data[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ],
    [
      'over 1 MiB of data',
      secret('Opaque', { a: btoa('x'.repeat(1024 * 1024)), b: 'eA==' }),
      `${head}data: Too long: may not be more than 1048576 bytes`,
    ],
  ]
  for (const [name, body, message] of cases) {
    it(name, () => {
      const r = create('secrets', body)
      if (message === null) expect(r.ok, r.ok ? '' : r.status.message).toBe(true)
      else expect(refusal(r).message).toBe(message)
    })
  }
})

describe('Secret updates (ValidateSecretUpdate)', () => {
  it('type is immutable', () => {
    const s = stored('secrets', secret('Opaque', {}))
    expect(refusal(update('secrets', s, secret('kubernetes.io/tls', { 'tls.crt': '', 'tls.key': '' }))).message).toBe(
      'Secret "s" is invalid: type: Invalid value: "kubernetes.io/tls": field is immutable',
    )
  })
  it('an immutable secret keeps its data and stays immutable', () => {
    const s = stored('secrets', secret('Opaque', { a: b64('1') }, { immutable: true }))
    expect(refusal(update('secrets', s, secret('Opaque', { a: b64('1') }, { stringData: { a: '2' } }))).message).toBe(
      'Secret "s" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]',
    )
  })
})

describe('tables and field selectors', () => {
  it('secrets: NAME TYPE DATA AGE, and type is selectable', () => {
    const def = resourceByPlural('secrets')!
    const s = stored('secrets', secret('kubernetes.io/tls', { 'tls.crt': '', 'tls.key': '' })).object
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual(['Name', 'Type', 'Data', 'Age'])
    expect(def.strategy.table.cells(s, ctx.now)).toEqual(['s', 'kubernetes.io/tls', 2, '0s'])
    expect(def.strategy.selectableFields(s)).toEqual({
      'metadata.name': 's',
      'metadata.namespace': 'default',
      type: 'kubernetes.io/tls',
    })
  })
  it('configmaps: NAME DATA AGE, DATA counting both maps', () => {
    const def = resourceByPlural('configmaps')!
    const c = stored('configmaps', cm({ data: { a: '1' }, binaryData: { b: 'eA==' } })).object
    expect(def.strategy.table.columns.map((c) => c.name)).toEqual(['Name', 'Data', 'Age'])
    expect(def.strategy.table.cells(c, ctx.now)).toEqual(['c', 2, '0s'])
  })
})
