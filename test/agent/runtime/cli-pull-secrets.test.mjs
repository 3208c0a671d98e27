// Pulls with a pod's imagePullSecrets through the stand-in CLI (it lets a private image in only with the credential
// it names): the exact argv (docker's --config <dir>, podman's --authfile), the client configuration's content and
// modes and its removal after the pull, every matching credential tried in turn, the kubelet's event for a pull
// secret that cannot be read, ErrImagePull with the kubelet's (aggregated) message, and no credentials for a
// registry none matches.
import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { before, describe, it } from 'node:test'
import { dockerConfigJson, image, setup, standIn, status, until } from './cli-harness.mjs'

const registry = {
  'registry.example:5000/team/app:1': {
    ...image('sha256:a1', { RepoDigests: ['registry.example:5000/team/app@sha256:ad'] }),
    Auth: 'robot:s3cret',
  },
  'private/hub:2': { ...image('sha256:h2'), Auth: 'hubuser:hubpass' },
  'registry.example:5000/open:1': image('sha256:o1'),
}
let s
before(async () => {
  s = await standIn('docker', { registry })
})

const pod = (img, secrets) => ({
  imagePullSecrets: secrets.map((name) => ({ name })),
  containers: [{ name: 'c', image: img, imagePullPolicy: 'Always', command: ['sleep', '30'] }],
})
const pullsOf = (img) => s.callsOf('pull').filter((c) => c.argv.at(-1) === img)

describe('container runtime: imagePullSecrets', () => {
  it('pulls a private image with the matching credential in a private config.json (0600, dir 0700) removed after', async () => {
    const img = 'registry.example:5000/team/app:1'
    const t = setup(s.runtime, pod(img, ['regcred']), {
      secrets: { regcred: dockerConfigJson({ 'registry.example:5000': 'robot:s3cret', 'other.example': 'x:y' }) },
    })
    await until('Running', () => status(t)?.state.running, 15_000, t)
    const [pull] = pullsOf(img)
    assert.equal(pull.argv.length, 4)
    assert.equal(pull.argv[0], '--config')
    assert.match(pull.argv[1], new RegExp(`^${s.dataDir}/pull-auth/pull-`))
    assert.deepEqual(pull.argv.slice(2), ['pull', img])
    // Only the credential for the image's registry, under its host, and nothing of the other entry.
    assert.deepEqual(pull.auth, {
      auths: { 'registry.example:5000': { auth: Buffer.from('robot:s3cret').toString('base64') } },
    })
    assert.equal(pull.authMode, '600')
    assert.equal(pull.configDirMode, '700')
    assert.equal(existsSync(pull.argv[1]), false)
    assert.deepEqual(readdirSync(join(s.dataDir, 'pull-auth')), [])
    assert.deepEqual(t.reads, ['/api/v1/namespaces/n/secrets/regcred'])
    assert.ok(t.events.includes(`Normal Pulling: Pulling image "${img}"`), String(t.events))
  })

  it('tries each matching credential, most specific registry key first, until one is let in', async () => {
    const img = 'registry.example:5000/team/app:1'
    const t = setup(s.runtime, pod(img, ['stale', 'good']), {
      secrets: {
        stale: dockerConfigJson({ 'https://registry.example:5000/v2/team': 'old:pw' }),
        good: dockerConfigJson({ 'registry.example:5000': 'robot:s3cret' }),
      },
    })
    await until('Running', () => status(t)?.state.running, 15_000, t)
    const users = pullsOf(img)
      .slice(-2)
      .map((c) => Buffer.from(c.auth.auths['registry.example:5000'].auth, 'base64').toString())
    assert.deepEqual(users, ['old:pw', 'robot:s3cret'])
  })

  it('reports ErrImagePull with every distinct failure, then ImagePullBackOff', async () => {
    const img = 'registry.example:5000/team/app:1'
    const t = setup(s.runtime, pod(img, ['a', 'b']), {
      secrets: {
        a: dockerConfigJson({ 'registry.example:5000': 'one:pw' }),
        b: dockerConfigJson({ '*.example:5000': 'two:pw' }),
      },
    })
    await until('ErrImagePull', () => status(t)?.state.waiting?.reason === 'ErrImagePull', 15_000, t)
    const deny = (u) =>
      `Error response from daemon: Head "https://registry.example:5000/v2/${img}": unauthorized: incorrect username or password (${u})`
    assert.equal(status(t).state.waiting.message, `[${deny('one')}, ${deny('two')}]`)
    assert.ok(t.events.includes(`Warning Failed: Failed to pull image "${img}": [${deny('one')}, ${deny('two')}]`))
    await until('ImagePullBackOff', () => status(t)?.state.waiting?.reason === 'ImagePullBackOff', 15_000, t)
    assert.equal(
      status(t).state.waiting.message,
      `Back-off pulling image "${img}": ErrImagePull: [${deny('one')}, ${deny('two')}]`,
    )
  })

  it('names a pull secret it cannot read in the kubelet event on the pod, and pulls without it', async () => {
    const img = 'registry.example:5000/team/app:1'
    const t = setup(s.runtime, pod(img, ['missing', '', 'gone']))
    await until('ErrImagePull', () => status(t)?.state.waiting?.reason === 'ErrImagePull', 15_000, t)
    assert.ok(
      t.events.includes(
        'pod Warning FailedToRetrieveImagePullSecret: Unable to retrieve some image pull secrets (missing, gone); attempting to pull the image may not succeed.',
      ),
      String(t.events),
    )
    assert.deepEqual(pullsOf(img).at(-1).argv, ['pull', img])
    assert.equal(
      status(t).state.waiting.message,
      `Error response from daemon: Head "https://registry.example:5000/v2/${img}": no basic auth credentials`,
    )
  })

  it('uses a legacy kubernetes.io/dockercfg Secret for Docker Hub (index.docker.io/v1/), as the kubelet does', async () => {
    const img = 'private/hub:2'
    const dockercfg = { 'https://index.docker.io/v1/': { username: 'hubuser', password: 'hubpass', email: 'a@b.c' } }
    const t = setup(s.runtime, pod(img, ['hub']), {
      secrets: {
        hub: {
          type: 'kubernetes.io/dockercfg',
          data: { '.dockercfg': Buffer.from(JSON.stringify(dockercfg)).toString('base64') },
        },
      },
    })
    await until('Running', () => status(t)?.state.running, 15_000, t)
    const entry = { auth: Buffer.from('hubuser:hubpass').toString('base64'), email: 'a@b.c' }
    assert.deepEqual(pullsOf(img).at(-1).auth, { auths: { 'https://index.docker.io/v1/': entry, 'docker.io': entry } })
  })

  it('pulls with the CLI’s own login when no credential matches the registry', async () => {
    const img = 'registry.example:5000/open:1'
    const t = setup(s.runtime, pod(img, ['other']), {
      secrets: { other: dockerConfigJson({ 'quay.io': 'q:q', 'registry.example:5000/team': 't:t' }) },
    })
    await until('Running', () => status(t)?.state.running, 15_000, t)
    assert.deepEqual(pullsOf(img).at(-1).argv, ['pull', img])
  })

  it('hands podman the credential with --authfile', async () => {
    const p = await standIn('podman', { registry })
    const img = 'registry.example:5000/team/app:1'
    const t = setup(p.runtime, pod(img, ['regcred']), {
      secrets: { regcred: dockerConfigJson({ 'registry.example:5000': 'robot:s3cret' }) },
    })
    await until('Running', () => status(t)?.state.running, 15_000, t)
    const pull = p.callsOf('pull').at(-1)
    assert.deepEqual(pull.argv.slice(0, 2), ['pull', '--authfile'])
    assert.match(pull.argv[2], new RegExp(`^${p.dataDir}/pull-auth/pull-[^/]+/config.json$`))
    assert.equal(pull.argv[3], img)
    assert.equal(pull.authMode, '600')
    assert.equal(existsSync(pull.argv[2]), false)
  })
})
