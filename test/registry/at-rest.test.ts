// The at-rest cipher on its own: key settings read as documented (and refused with a reason, never the key), objects
// sealed only for kinds that ask, rotation (old keys still open what they sealed), tampering detected, and plain
// JSON (written before a key existed) passing through.
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { configureEncryption, isSealed, open } from '../../src/registry/at-rest'
import { configureEncryptionAtRest } from '../../src/registry/at-rest-config'
import { encodeStored, materialize } from '../../src/registry/stored-json'
import type { KubeObject } from '../../src/schema/meta'

const k32 = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i)))
const k16 = btoa(String.fromCharCode(...Array.from({ length: 16 }, (_, i) => 100 + i)))
const onlySecrets = (r: string) => r === 'secrets'
const secret = (): KubeObject => ({
  kind: 'Secret',
  apiVersion: 'v1',
  metadata: { name: 's', namespace: 'ns', labels: { app: 'web', '10': 'x' } },
  data: { password: btoa('hunter2') },
  type: 'Opaque',
})

// Other tests in this isolate rely on the run's own key (vitest.config.ts): put it back.
afterEach(() => {
  configureEncryptionAtRest(env)
})

describe('KUBEFLARE_ENCRYPTION_KEY', () => {
  it('takes a bare key, or named keys; refuses bad ones with a reason that holds no key material', () => {
    expect(configureEncryption(k32, onlySecrets)).toBeNull()
    expect(configureEncryption(`new:${k16}, old:${k32}`, onlySecrets)).toBeNull()
    const cases: [string, string][] = [
      ['c2hvcnQ=', 'key "key1" has 5 bytes; AES-GCM takes 16, 24 or 32'],
      ['not base64!', 'key "key1" is not base64'],
      [`a:${k32},a:${k16}`, 'key "a" is given twice'],
      [`bad name:${k32}`, "key 1: a key name is letters, digits, '.', '_' or '-'"],
    ]
    for (const [text, why] of cases)
      expect(configureEncryption(text, onlySecrets)).toBe(`KUBEFLARE_ENCRYPTION_KEY: ${why}`)
  })
})

describe('sealing', () => {
  it('seals only the kinds that ask; the envelope keeps name, namespace and labels in the clear', () => {
    configureEncryption(`key1:${k32}`, onlySecrets)
    const stored = encodeStored(secret(), 'secrets')
    expect(isSealed(stored)).toBe(true)
    expect(stored).not.toContain('aHVudGVyMg')
    expect(stored).not.toContain('Opaque')
    expect(stored).toMatch(/^\{"kubeflare\.encrypted":"k8s:enc:aesgcm:v1:key1:[A-Za-z0-9+/=]+","metadata":\{/)
    expect(JSON.parse(stored).metadata).toEqual({ name: 's', namespace: 'ns', labels: { app: 'web', '10': 'x' } })
    expect(materialize(stored, 7)).toEqual({ ...secret(), metadata: { ...secret().metadata, resourceVersion: '7' } })
    // Two writes of the same object never share a ciphertext (a fresh nonce each time).
    expect(encodeStored(secret(), 'secrets')).not.toBe(stored)
    expect(isSealed(encodeStored({ ...secret(), kind: 'ConfigMap' }, 'configmaps'))).toBe(false)
  })

  it('without a key objects are stored as they are; plain JSON reads back under any key', () => {
    configureEncryption(undefined, onlySecrets)
    const plain = encodeStored(secret(), 'secrets')
    expect(isSealed(plain)).toBe(false)
    configureEncryption(k32, onlySecrets)
    expect(materialize(plain, 3).data).toEqual(secret().data)
  })

  it('rotation: a new first key seals, the old key still opens what it sealed; a dropped key is kube-worded', () => {
    configureEncryption(`old:${k32}`, onlySecrets)
    const byOld = encodeStored(secret(), 'secrets')
    configureEncryption(`new:${k16},old:${k32}`, onlySecrets)
    expect(materialize(byOld, 1).data).toEqual(secret().data)
    expect(encodeStored(secret(), 'secrets')).toContain('k8s:enc:aesgcm:v1:new:')
    configureEncryption(`new:${k16}`, onlySecrets)
    expect(() => open(byOld)).toThrow(/^no matching prefix found/)
  })

  it('an edited label or a swapped name fails to open', () => {
    configureEncryption(k32, onlySecrets)
    const stored = encodeStored(secret(), 'secrets')
    expect(() => open(stored.replace('"app":"web"', '"app":"api"'))).toThrow(/altered/)
    expect(() => open(stored.replace('"name":"s"', '"name":"t"'))).toThrow(/altered/)
  })
})
