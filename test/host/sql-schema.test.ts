// The tables of a Durable Object's own SQLite (src/host/local-schema.ts): an object written by an older kubeflare
// (layout 1, `objects` WITHOUT ROWID) is upgraded in place when its store starts, and serves the same objects after.
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { SqlObjectStore } from '../../src/host/sql-object-store'
import { SqlHostState } from '../../src/host/sql-host-records'
import { prepareSqlSchema } from '../../src/host/sql-schema'
import { encodeStored } from '../../src/registry/stored-json'
import type { KubeObject } from '../../src/schema/meta'

const pod = (name: string, labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'layout', labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
})

describe('SqlObjectStore layout upgrade', () => {
  it('moves layout-1 objects into the rowid table and keeps serving them', async () => {
    const stub = env.NAMESPACES.getByName(`layout-${Date.now().toString(36)}`)
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql
      // What kubeflare before layout 2 left behind: objects WITHOUT ROWID, no layout mark.
      sql.exec('DROP TABLE objects')
      sql.exec(`CREATE TABLE objects (
        resource TEXT NOT NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, labels TEXT NOT NULL, object TEXT NOT NULL,
        PRIMARY KEY (resource, name)) WITHOUT ROWID`)
      sql.exec("DELETE FROM state WHERE key = 'layout'")
      const pods = [pod('b', { app: 'x' }), pod('a', { app: 'y' })]
      pods.forEach((p, i) =>
        sql.exec(
          'INSERT INTO objects (resource, name, rv, labels, object) VALUES (?, ?, ?, ?, ?)',
          'pods',
          p.metadata.name!,
          10 + i,
          JSON.stringify(p.metadata.labels),
          encodeStored(p),
        ),
      )

      prepareSqlSchema(sql, state.storage)
      const store = new SqlObjectStore(sql, state.storage, new SqlHostState(sql), 100)
      const table = sql
        .exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'objects'")
        .one().sql
      expect(table).not.toMatch(/WITHOUT ROWID/i)
      expect(
        sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'objects_upgraded'").one().n,
      ).toBe(0)
      expect(sql.exec<{ value: string }>("SELECT value FROM state WHERE key = 'layout'").one().value).toBe('4')
      expect(store.names('pods')).toEqual(['a', 'b'])
      const { text, ...b } = store.get('pods', 'b')!
      expect(b).toEqual({
        rv: 10,
        object: { ...pods[0], metadata: { ...pods[0]!.metadata, resourceVersion: '10' } },
      })
      expect(text).toBe(encodeStored(pods[0]!))
      expect(store.exists('pods', 'a')).toBe(true)

      // The key is still unique: applying a change to an existing object updates its one row.
      const next = pod('a', { app: 'z' })
      store.apply([
        {
          rv: 20,
          type: 'MODIFIED',
          resource: 'pods',
          namespace: 'layout',
          name: 'a',
          object: next,
          prev: pods[1]!,
          prevRv: 11,
        },
      ])
      expect(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM objects WHERE name = 'a'").one().n).toBe(1)
      expect(store.get('pods', 'a')?.rv).toBe(20)

      // A second start finds the current layout and leaves the table alone.
      sql.exec(
        "INSERT INTO objects (resource, name, rv, labels, object) VALUES ('pods', 'c', 21, '{}', ?)",
        encodeStored(pod('c', {})),
      )
      prepareSqlSchema(sql, state.storage)
      const again = new SqlObjectStore(sql, state.storage, new SqlHostState(sql), 100)
      expect(again.names('pods')).toEqual(['a', 'b', 'c'])
    })
  })

  it('gives the pods a layout-2 object stored the Node authorizer’s graph edges', async () => {
    const stub = env.NAMESPACES.getByName(`layout-edges-${Date.now().toString(36)}`)
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql
      // Layout 2 had no graph_edges table: its pods were stored without rows.
      sql.exec('DROP TABLE graph_edges')
      sql.exec("UPDATE state SET value = '2' WHERE key = 'layout'")
      const bound = {
        ...pod('bound', {}),
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }], imagePullSecrets: [{ name: 'pull' }] },
      }
      sql.exec(
        "INSERT INTO objects (resource, name, rv, labels, object) VALUES ('pods', 'bound', 30, '{}', ?)",
        encodeStored(bound),
      )
      prepareSqlSchema(sql, state.storage)
      const store = new SqlObjectStore(sql, state.storage, new SqlHostState(sql), 100)
      expect(sql.exec<{ value: string }>("SELECT value FROM state WHERE key = 'layout'").one().value).toBe('4')
      expect(store.graphEdgesFrom('secret', '', 'pull', 'n1')).toEqual([
        { resource: 'pods', name: 'bound', node: 'n1' },
      ])
      expect(store.get('pods', 'bound')?.rv).toBe(30)
    })
  })

  it('gives the owner rows of a layout-3 object the apiVersion their ownerReferences name', async () => {
    const stub = env.NAMESPACES.getByName(`layout-owners-${Date.now().toString(36)}`)
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql
      // Layout 3's owner rows had no apiVersion.
      sql.exec('DROP TABLE owner_refs')
      sql.exec(`CREATE TABLE owner_refs (
        owner_uid TEXT NOT NULL, owner_kind TEXT NOT NULL, owner_name TEXT NOT NULL, resource TEXT NOT NULL,
        name TEXT NOT NULL, PRIMARY KEY (owner_uid, resource, name)) WITHOUT ROWID`)
      sql.exec("UPDATE state SET value = '3' WHERE key = 'layout'")
      const owned = {
        ...pod('owned', {}),
        metadata: {
          name: 'owned',
          namespace: 'layout',
          ownerReferences: [{ apiVersion: 'b.example.com/v1', kind: 'Widget', name: 'w', uid: 'u1' }],
        },
      }
      sql.exec(
        "INSERT INTO objects (resource, name, rv, labels, object) VALUES ('pods', 'owned', 40, '{}', ?)",
        encodeStored(owned),
      )
      sql.exec(
        "INSERT INTO owner_refs (owner_uid, owner_kind, owner_name, resource, name) VALUES ('u1', 'Widget', 'w', 'pods', 'owned')",
      )
      prepareSqlSchema(sql, state.storage)
      const store = new SqlObjectStore(sql, state.storage, new SqlHostState(sql), 100)
      expect(sql.exec<{ value: string }>("SELECT value FROM state WHERE key = 'layout'").one().value).toBe('4')
      expect(store.owners()).toEqual([{ uid: 'u1', apiVersion: 'b.example.com/v1', kind: 'Widget', name: 'w' }])
      expect(store.dependents('u1')).toEqual([{ resource: 'pods', name: 'owned' }])
    })
  })

  it('creates a new object at the current layout', async () => {
    const stub = env.NAMESPACES.getByName(`layout-new-${Date.now().toString(36)}`)
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql
      expect(sql.exec<{ value: string }>("SELECT value FROM state WHERE key = 'layout'").one().value).toBe('4')
      expect(
        sql.exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'objects'").one().sql,
      ).not.toMatch(/WITHOUT ROWID/i)
    })
  })
})
