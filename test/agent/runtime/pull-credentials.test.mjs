// The kubelet's keyring, as the agent reads pull secrets: image names normalized as reference.ParseNormalizedNamed
// does, registry keys made as keyring.go's Add makes them, host globs, ports and path prefixes matched as URLsMatch
// does, Docker Hub's legacy key, and the auth field decoded (or refused) as DockerConfigEntry does.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { lookupCredentials, PullSecretError, repositoryOf, urlsMatch } from '../../../agent/runtime/pull-credentials.ts'

const json = (auths) => ({
  type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths })).toString('base64') },
})
const basic = (up) => ({ auth: Buffer.from(up).toString('base64') })
const users = (creds) => creds.map((c) => c.username)

describe('pull credentials', () => {
  it('normalizes image names to their repository', () => {
    assert.equal(repositoryOf('busybox'), 'docker.io/library/busybox')
    assert.equal(repositoryOf('busybox:1.36'), 'docker.io/library/busybox')
    assert.equal(repositoryOf('me/app@sha256:abc'), 'docker.io/me/app')
    assert.equal(repositoryOf('index.docker.io/me/app:1'), 'docker.io/me/app')
    assert.equal(repositoryOf('localhost/app'), 'localhost/app')
    assert.equal(repositoryOf('registry.example:5000/team/app:1'), 'registry.example:5000/team/app')
    assert.equal(repositoryOf('quay.io/org/app'), 'quay.io/org/app')
  })

  it('matches host globs, ports and path prefixes as URLsMatch does', () => {
    assert.equal(urlsMatch('*.example.com', 'eu.example.com/app'), true)
    assert.equal(urlsMatch('*.example.com', 'example.com/app'), false)
    assert.equal(urlsMatch('*.example.com', 'a.b.example.com/app'), false)
    assert.equal(urlsMatch('registry.example:5000', 'registry.example/app'), false)
    assert.equal(urlsMatch('registry.example:5000', 'registry.example:5000/app'), true)
    assert.equal(urlsMatch('quay.io/org', 'quay.io/org/app'), true)
    assert.equal(urlsMatch('quay.io/org', 'quay.io/other/app'), false)
    assert.equal(urlsMatch('reg?stry.[a-c]xample.io', 'registry.example.io/x'), false)
    assert.equal(urlsMatch('reg?stry.[d-f]xample.io', 'registry.example.io/x'), true)
  })

  it('answers every matching credential, most specific key first, across secrets', () => {
    const secrets = [
      json({ 'quay.io': basic('host:a'), 'https://quay.io/v1/org': basic('org:b'), 'gcr.io': basic('other:c') }),
      json({ 'http://quay.io': basic('second:d') }),
      { type: 'Opaque', data: { '.dockerconfigjson': 'e30=' } },
    ]
    assert.deepEqual(users(lookupCredentials(secrets, 'quay.io/org/app:1')), ['org', 'host', 'second'])
    assert.deepEqual(users(lookupCredentials(secrets, 'quay.io/else/app')), ['host', 'second'])
    assert.deepEqual(lookupCredentials(secrets, 'busybox'), [])
  })

  it('uses Docker Hub’s legacy key for Docker Hub images only when nothing else matches', () => {
    const hub = json({ 'https://index.docker.io/v1/': { username: 'u', password: 'p' } })
    assert.deepEqual(lookupCredentials([hub], 'busybox'), [{ username: 'u', password: 'p' }])
    assert.deepEqual(lookupCredentials([hub], 'me/app:2'), [{ username: 'u', password: 'p' }])
    assert.deepEqual(lookupCredentials([hub], 'quay.io/me/app'), [])
    assert.deepEqual(users(lookupCredentials([hub, json({ 'docker.io': basic('plain:x') })], 'me/app')), ['plain'])
  })

  it('reads legacy dockercfg Secrets, and refuses an auth field that is not base64(user:password)', () => {
    const cfg = {
      type: 'kubernetes.io/dockercfg',
      data: { '.dockercfg': Buffer.from(JSON.stringify({ 'r.io': basic('a:b:c') })).toString('base64') },
    }
    assert.deepEqual(lookupCredentials([cfg], 'r.io/x'), [{ username: 'a', password: 'b:c' }])
    assert.throws(
      () => lookupCredentials([json({ 'r.io': basic('nocolon') })], 'r.io/x'),
      new PullSecretError('unable to parse auth field, must be formatted as base64(username:password)'),
    )
    assert.throws(
      () => lookupCredentials([{ type: 'kubernetes.io/dockercfg', data: { '.dockercfg': 'bm90IGpzb24=' } }], 'r.io/x'),
      PullSecretError,
    )
  })

  it('words a pull secret that is not JSON without quoting its bytes (the message reaches pod status and events)', () => {
    const raw = (text) => ({
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': Buffer.from(text).toString('base64') },
    })
    const failure = (text) => {
      try {
        lookupCredentials([raw(text)], 'r.io/x')
      } catch (e) {
        assert.ok(e instanceof PullSecretError)
        return e.message
      }
      assert.fail('no error')
    }
    // Go's encoding/json (the kubelet's) names the character, not the text around it.
    assert.equal(
      failure('{"auths":{"r.io":{"password":hunter2secret}}}'),
      "invalid character 'h' looking for beginning of value",
    )
    assert.equal(failure('{"auths":{"r.io":{"password":"hunter2secret"'), 'unexpected end of JSON input')
    for (const text of ['{"auths":{"r.io":{"password":"hunter2secret" x}}}', 'password=hunter2secret'])
      assert.doesNotMatch(failure(text), /hunter|secret|password/)
  })
})
