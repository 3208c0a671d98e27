// Real kubectl request bodies (captured by fixtures/capture.mjs) decode to the JSON a Go client would have sent.
/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../src/api/protobuf/decode'

// Workers tests have no host filesystem: Vite inlines each .pb as a base64 data URL at transform time.
const pbUrls = import.meta.glob<string>('./fixtures/*.pb', { query: '?url&inline', import: 'default', eager: true })
const jsons = import.meta.glob<unknown>('./fixtures/*.json', { import: 'default', eager: true })

const bytesOf = (dataUrl: string) =>
  Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0))
const fixture = (name: string) => bytesOf(pbUrls[`./fixtures/${name}`]!)

const dropNulls = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(dropNulls)
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null)
        .map(([k, x]) => [k, dropNulls(x)]),
    )
  return v
}

/** kubectl debug node/... names its pod with a random 5-character suffix, so each capture run differs there. */
const unrandomised = (o: unknown) =>
  JSON.parse(JSON.stringify(o).replace(/"node-debugger-(\w+)-[a-z0-9]{5}"/g, '"node-debugger-$1-xxxxx"')) as unknown

interface Captured {
  case: string
  version: string
  requests: { method: string; path: string; contentType: string; file?: string }[]
}
const captured = jsons['./fixtures/captured.json'] as Captured[]

describe('kubectl protobuf fixtures', () => {
  const pbFiles = Object.keys(pbUrls).map((k) => k.slice('./fixtures/'.length))

  it('captured some protobuf bodies', () => {
    expect(pbFiles.length).toBeGreaterThanOrEqual(8)
  })

  for (const file of pbFiles) {
    // .expected.json is kubectl's --dry-run=client -o json for the same command; .reviewed.json was checked by hand.
    const expected =
      jsons[`./fixtures/${file.replace(/\.pb$/, '.expected.json')}`] ??
      jsons[`./fixtures/${file.replace(/\.pb$/, '.reviewed.json')}`]
    it(`${file} decodes to kubectl's own JSON for it`, () => {
      const decoded = decodeKubeProtobuf(fixture(file))
      expect(decoded.object.apiVersion).toBe(decoded.apiVersion)
      expect(decoded.object.kind).toBe(decoded.kind)
      if (expected !== undefined) expect(unrandomised(decoded.object)).toEqual(unrandomised(expected))
      // The same command from kubectl 1.27 sent JSON: the object must be the same.
      const name = file.replace(/\.1\.\d+\.pb$/, '')
      const old = jsons[`./fixtures/${name}.1.27.json`]
      if (old !== undefined) expect(decoded.object).toEqual(dropNulls(old))
    })
  }

  it('debug --copy-to: a pod using nearly every PodSpec field round-trips through Go protobuf to Go JSON', () => {
    // The server served debug-copy.source.json (Go's own JSON for the pod, via kubectl run --dry-run); kubectl's
    // typed client re-sent it as protobuf after debug's edits: new name, the pod's namespace, no labels, one more
    // container. Everything else (volumes of every kind, probes, security contexts, affinity, explicit zeros in
    // pointer fields, divisor "0" in a value Quantity...) must come back exactly.
    const source = structuredClone(jsons['./fixtures/debug-copy.source.json']) as {
      metadata: Record<string, unknown>
      spec: { containers: unknown[] }
    }
    source.metadata = { ...source.metadata, name: 'rich-copy', namespace: 'default' }
    delete source.metadata.labels
    source.spec.containers.push({ name: 'dbg', image: 'busybox', resources: {}, terminationMessagePolicy: 'File' })
    expect(decodeKubeProtobuf(fixture('debug-copy.1.33.pb')).object).toEqual(source)
  })

  it('create token: TokenRequest with an empty spec and Go zero-value status', () => {
    const d = decodeKubeProtobuf(fixture('create-token.1.33.pb'))
    expect(d).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      // token has no omitempty in Go, so an unset one is "" in JSON too; the zero expirationTimestamp is null.
      object: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        metadata: {},
        spec: {},
        status: { token: '' },
      },
    })
  })

  it('only kubectl >= 1.32 typed create commands send protobuf; run, expose, create -f, delete, drain send JSON', () => {
    const protobufCases = (version: string) =>
      captured
        .filter(
          (c) =>
            c.version === version &&
            c.requests.some((r) => r.contentType.startsWith('application/vnd.kubernetes.protobuf')),
        )
        .map((c) => c.case)
        .sort()
    expect(protobufCases('1.27')).toEqual([])
    expect(protobufCases('1.33')).toEqual(
      expect.arrayContaining(['create-namespace', 'create-service-clusterip', 'create-token']),
    )
    for (const c of ['run', 'expose-pod', 'expose-rc', 'create-f', 'delete-pod', 'drain'])
      expect(protobufCases('1.33')).not.toContain(c)
    expect(protobufCases('1.33')).toEqual(expect.arrayContaining(['debug-copy', 'debug-node']))
  })
})
