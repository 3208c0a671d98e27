// Secrets are encrypted at rest in the namespace Durable Object's SQLite and in D1 (objects, change log, history),
// with their labels left plain for the indexes, while every read path sees them decrypted: get, namespaced and
// cluster-wide lists (label and field selectors), watches from now and from an old resourceVersion.
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { makeNamespace, openWatch, req } from '../helpers'

const PLAIN = 'correct-horse-battery-staple'
const B64 = btoa(PLAIN)

/** Every text column of every row of the namespace DO's tables and of D1's changes/objects rows of the namespace. */
async function rawStorage(ns: string): Promise<{ durable: string; d1: string }> {
  const texts: string[] = []
  await runInDurableObject(env.NAMESPACES.getByName(ns), (_instance, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray()
    for (const { name } of tables) {
      for (const row of state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()) texts.push(JSON.stringify(row))
    }
  })
  const changes = await env.DB.prepare('SELECT object, prev FROM changes WHERE ns = ?').bind(ns).all()
  const objects = await env.DB.prepare('SELECT object, labels FROM objects WHERE ns = ?').bind(ns).all()
  return { durable: texts.join('\n'), d1: JSON.stringify([changes.results, objects.results]) }
}

describe('Secrets at rest', () => {
  it('no plaintext or base64 of the data in DO SQLite or D1; everything reads back decrypted', async () => {
    const ns = await makeNamespace('enc')
    const path = `/api/v1/namespaces/${ns}/secrets`
    const w = await openWatch(`${path}?watch=true`)
    const created = await req('POST', path, {
      metadata: { name: 'db', labels: { app: 'shop' } },
      stringData: { password: PLAIN },
    })
    expect(created.status, created.text).toBe(201)
    const updated = await req(
      'PATCH',
      `${path}/db`,
      { data: { password: btoa(`${PLAIN}-2`) } },
      { 'content-type': 'application/merge-patch+json' },
    )
    expect(updated.status, updated.text).toBe(200)
    // A ConfigMap beside it is stored in the clear (only the kinds that ask are encrypted).
    await req('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'cfg' },
      data: { note: 'visible-text' },
    })

    const raw = await rawStorage(ns)
    for (const where of [raw.durable, raw.d1]) {
      expect(where).not.toContain(PLAIN)
      expect(where).not.toContain(B64)
      expect(where).not.toContain(btoa(`${PLAIN}-2`))
      expect(where).toContain('k8s:enc:aesgcm:v1:key1:')
      // The labels stay plain for the label index; the ConfigMap is not encrypted.
      expect(where).toContain('shop')
      expect(where).toContain('visible-text')
    }

    // Reads: get, namespaced list with selectors, cluster-wide list (D1) with a label selector.
    expect((await req('GET', `${path}/db`)).json.data).toEqual({ password: btoa(`${PLAIN}-2`) })
    const byLabel = await req('GET', `${path}?labelSelector=app%3Dshop`)
    expect(byLabel.json.items.map((s: any) => s.data.password)).toEqual([btoa(`${PLAIN}-2`)])
    const byType = await req('GET', `${path}?fieldSelector=type%3DOpaque`)
    expect(byType.json.items).toHaveLength(1)
    const cluster = await req('GET', `/api/v1/secrets?labelSelector=app%3Dshop`)
    const mine = cluster.json.items.filter((s: any) => s.metadata.namespace === ns)
    expect(mine.map((s: any) => s.data.password)).toEqual([btoa(`${PLAIN}-2`)])
    // A list at the snapshot before the update reads the old state from the history's encrypted prev.
    const old = await req(
      'GET',
      `${path}?resourceVersion=${created.json.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    )
    expect(old.json.items.map((s: any) => s.data.password)).toEqual([B64])

    // Watches: live events, and a replay from before the create.
    const live = [await w.next(), await w.next()]
    expect(live.map((e: any) => [e.type, e.object.data.password])).toEqual([
      ['ADDED', B64],
      ['MODIFIED', btoa(`${PLAIN}-2`)],
    ])
    await w.cancel()
    const replay = await openWatch(
      `${path}?watch=true&resourceVersion=${Number(created.json.metadata.resourceVersion) - 1}`,
    )
    const again = [await replay.next(), await replay.next()]
    expect(again.map((e: any) => e.object.data.password)).toEqual([B64, btoa(`${PLAIN}-2`)])
    await replay.cancel()
    const hub = await openWatch(
      `/api/v1/secrets?watch=true&resourceVersion=${Number(created.json.metadata.resourceVersion) - 1}`,
    )
    const first = await hub.next()
    expect(first.object.data.password).toBe(B64)
    await hub.cancel()
  })
})
