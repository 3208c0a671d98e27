// What crosses Workers RPC as JSON text: WriteOptions.encodeAnswer makes the host answer the object as JSON text in
// Go's field order, naming it only by its identity (without the option the answer is the object itself); a write's
// input may come as JSON text.
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../src/schema/meta'
import { encodeBody } from '../../src/registry/wire-json'
import { decodeInput, encodeInput } from '../../src/host/rpc-json'
import { memoryHost } from '../support/memory-host'

const pod = (name: string): KubeObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name, annotations: { note: '<b>' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})

describe('encoded write answers', () => {
  it('create, update and patch send the object as text and only its identity as the object', async () => {
    const { host } = memoryHost()
    const created = await host.create('pods', pod('p'), { encodeAnswer: true })
    if (!created.ok) throw new Error(created.status.message)
    const { json, object } = created.value
    const stored = await host.get('pods', 'p')
    if (!stored.ok) throw new Error(stored.status.message)
    // The text is what the Worker's encoder writes for the stored object, before Go's escaping and the newline.
    expect(encodeBody(JSON.parse(json!))).toBe(encodeBody(stored.value))
    expect(`${json}\n`).not.toBe(encodeBody(stored.value))
    expect(object).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        namespace: stored.value.metadata.namespace,
        uid: stored.value.metadata.uid,
        resourceVersion: stored.value.metadata.resourceVersion,
      },
    })

    const updated = await host.update(
      'pods',
      'p',
      { ...stored.value, metadata: { ...stored.value.metadata, labels: { a: 'b' } } },
      { encodeAnswer: true },
    )
    if (!updated.ok) throw new Error(updated.status.message)
    expect(JSON.parse(updated.value.json!).metadata.labels).toEqual({ a: 'b' })
    expect(updated.value.object.spec).toBeUndefined()

    const patched = await host.patch('pods', 'p', 'merge', '{"metadata":{"labels":{"c":"d"}}}', {
      fieldValidation: 'Strict',
      encodeAnswer: true,
    })
    if (!patched.ok) throw new Error(patched.status.message)
    expect(JSON.parse(patched.value.json!).metadata.labels).toEqual({ a: 'b', c: 'd' })
  })

  it('without the option the answer is the whole object', async () => {
    const { host } = memoryHost()
    const created = await host.create('pods', pod('q'))
    if (!created.ok) throw new Error(created.status.message)
    expect(created.value.json).toBeUndefined()
    expect(created.value.object.spec).toBeDefined()
  })

  it('an input sent as JSON text is the object it encodes', () => {
    const input = pod('r')
    const sent = encodeInput(input)
    expect(typeof sent).toBe('string')
    expect(decodeInput(sent)).toEqual(input)
    expect(decodeInput(input)).toBe(input)
  })
})
