// kubectl and core/v1 ReplicationControllers against a real `wrangler dev` server: get (table and wide), scale
// (the /scale subresource), describe, pod replacement, delete with the default cascade and with --cascade=orphan.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Polls fn until it returns something other than undefined (default 20 s: the dev server's kubelet takes ~0.5 s). */
async function waitFor(what, fn, ms = 20_000) {
  const until = Date.now() + ms
  let last
  for (;;) {
    last = await fn()
    if (last !== undefined && last !== false) return last
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`)
    await sleep(200)
  }
}

const rcManifest = (name, replicas) => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name },
  spec: {
    replicas,
    selector: { app: name },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] },
    },
  },
})

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}: replication controllers`, () => {
    const ns = uniqueNs(`rc${v.replace('.', '')}`)
    const k = (args, opts) => kubectl(v, ['-n', ns, ...args], opts)
    /** The live (not terminating) pods of an RC, by the API. */
    const livePods = async (app) =>
      (await api('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3D${app}`)).body.items.filter(
        (p) => !p.metadata.deletionTimestamp,
      )
    /** `kubectl get rc <name>` until DESIRED, CURRENT and READY are all n. */
    const ready = (name, n) =>
      waitFor(`${name} at ${n}/${n}/${n}`, async () => {
        const t = parseTable((await k(['get', 'rc', name])).stdout)
        const row = t.rows[0]
        return row && row[1] === String(n) && row[2] === String(n) && row[3] === String(n) ? t : undefined
      })

    after(async () => {
      await kubectl(v, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true, timeout: 20_000 })
    })

    it('create, get rc (table and wide)', async () => {
      await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
      assert.match(
        (await k(['apply', '-f', '-'], { input: toYaml(rcManifest('web', 3)) })).stdout,
        /^replicationcontroller\/web created$/m,
      )
      const t = await ready('web', 3)
      assert.deepEqual(t.header, ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'])
      const wide = parseTable((await k(['get', 'rc', '-o', 'wide'])).stdout)
      assert.deepEqual(wide.header, ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR'])
      assert.deepEqual(wide.rows[0].slice(5), ['nginx', 'nginx:1.25', 'app=web'])
      // The short name and the `all` category.
      assert.match((await k(['get', 'all'])).stdout, /replicationcontroller\/web\s+3\s+3\s+3/)
      const pods = await livePods('web')
      assert.equal(pods.length, 3)
      for (const p of pods) {
        assert.match(p.metadata.name, /^web-[a-z0-9]{5}$/)
        assert.equal(p.metadata.ownerReferences[0].kind, 'ReplicationController')
        assert.equal(p.metadata.ownerReferences[0].controller, true)
      }
    })

    it('scale rc up and down', async () => {
      assert.match((await k(['scale', 'rc', 'web', '--replicas=5'])).stdout, /^replicationcontroller\/web scaled$/m)
      await ready('web', 5)
      assert.match((await k(['scale', 'rc', 'web', '--replicas=2'])).stdout, /^replicationcontroller\/web scaled$/m)
      await ready('web', 2)
      // Scaled-down pods stop after the kubelet's grace; describe counts them until they are gone.
      await waitFor('2 pods', async () =>
        (await api('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dweb`)).body.items.length === 2
          ? true
          : undefined,
      )
      // --current-replicas is a precondition: a wrong one changes nothing.
      const wrong = await k(['scale', 'rc', 'web', '--current-replicas=7', '--replicas=4'], { allowFail: true })
      assert.notEqual(wrong.code, 0)
      assert.match(wrong.stderr, /Expected replicas to be 7, was 2/)
      const rc = await api('GET', `/api/v1/namespaces/${ns}/replicationcontrollers/web`)
      assert.equal(rc.body.spec.replicas, 2)
      assert.equal(rc.body.metadata.generation, 3)
      assert.equal(rc.body.status.observedGeneration, 3)
    })

    it('describe rc', async () => {
      const out = (await k(['describe', 'rc', 'web'])).stdout
      assert.match(out, /^Name:\s+web$/m)
      assert.match(out, /^Selector:\s+app=web$/m)
      assert.match(out, /^Replicas:\s+2 current \/ 2 desired$/m)
      assert.match(out, /^Pods Status:\s+2 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed$/m)
      assert.match(out, /^\s+Image:\s+nginx:1\.25$/m)
      assert.match(out, /SuccessfulCreate\s+.*replication-controller\s+Created pod: web-/)
      assert.match(out, /SuccessfulDelete\s+.*replication-controller\s+Deleted pod: web-/)
    })

    it('a deleted pod is replaced', async () => {
      const [victim] = await livePods('web')
      await k(['delete', 'pod', victim.metadata.name, '--wait=false'])
      const now = await waitFor('a replacement', async () => {
        const live = await livePods('web')
        return live.length === 2 && !live.some((p) => p.metadata.name === victim.metadata.name) ? live : undefined
      })
      assert.equal(now.length, 2)
      await ready('web', 2)
    })

    it('delete rc takes its pods (background cascade)', async () => {
      assert.match((await k(['delete', 'rc', 'web'])).stdout, /^replicationcontroller "web" deleted$/m)
      const r = await k(['get', 'rc', 'web'], { allowFail: true })
      assert.match(r.stderr, /NotFound/)
      await waitFor('pods gone', async () => ((await livePods('web')).length === 0 ? true : undefined))
    })

    it('delete rc --cascade=orphan keeps the pods, released', async () => {
      await k(['apply', '-f', '-'], { input: toYaml(rcManifest('keep', 2)) })
      await ready('keep', 2)
      assert.match(
        (await k(['delete', 'rc', 'keep', '--cascade=orphan'])).stdout,
        /^replicationcontroller "keep" deleted$/m,
      )
      const pods = await waitFor('released pods', async () => {
        const live = await livePods('keep')
        return live.length === 2 && live.every((p) => !p.metadata.ownerReferences) ? live : undefined
      })
      assert.equal(pods.length, 2)
      await k(['delete', 'pods', '-l', 'app=keep', '--wait=false'])
    })
  })
}
