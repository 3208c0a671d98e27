// fsGroup: volume files given to the pod's group as kubelet's SetVolumeOwnership gives them: a Secret's 0400 files
// become 0440 and the group's, directories setgid; an emptyDir the group's and group-writable; a resync of unchanged
// data finds the files as they are (no rewrite), and a hostPath is left alone.
import assert from 'node:assert/strict'
import { lstatSync, mkdtempSync, readlinkSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { PodVolumes } from '../../../agent/volumes/pod-volumes.ts'

const b64 = (s) => Buffer.from(s).toString('base64')

describe('volume ownership (fsGroup)', () => {
  it('gives API data and emptyDir files to the fsGroup, group-readable, and keeps them on a resync', async () => {
    const host = mkdtempSync(join(tmpdir(), 'own-host-'))
    const pod = {
      metadata: { name: 'p', namespace: 'n', uid: 'u' },
      spec: {
        securityContext: { fsGroup: 1234 },
        containers: [
          {
            name: 'a',
            volumeMounts: [
              { name: 'creds', mountPath: '/c' },
              { name: 'scratch', mountPath: '/s' },
              { name: 'host', mountPath: '/h' },
              { name: 'tok', mountPath: '/t' },
            ],
          },
        ],
        volumes: [
          { name: 'creds', secret: { secretName: 's', defaultMode: 0o400 } },
          { name: 'scratch', emptyDir: {} },
          { name: 'host', hostPath: { path: host } },
          { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
        ],
      },
    }
    const volumes = new PodVolumes({
      podDir: mkdtempSync(join(tmpdir(), 'own-')),
      pod: () => pod,
      client: {
        get: async () => ({ data: { password: b64('x') } }),
        request: async () => ({
          status: { token: 't', expirationTimestamp: new Date(Date.now() + 3600e3).toISOString() },
        }),
      },
      allocatable: {},
      event: (...e) => assert.fail(`event ${e}`),
      log: () => {},
    })
    assert.equal(await volumes.ensure(), null)
    const [creds, scratch, hostPath, tok] = volumes.mountsFor(pod.spec.containers[0], {}, 'docker').map((m) => m.source)
    const file = statSync(join(creds, 'password'))
    assert.equal((file.mode & 0o7777).toString(8), '440')
    assert.equal(file.gid, 1234)
    const ts = readlinkSync(join(creds, '..data'))
    assert.equal(lstatSync(join(creds, ts)).gid, 1234)
    assert.equal(lstatSync(join(creds, ts)).mode & 0o2000, 0o2000)
    assert.equal(statSync(scratch).gid, 1234)
    assert.equal((statSync(scratch).mode & 0o7777).toString(8), '2777')
    assert.equal(statSync(hostPath).gid, statSync(tmpdir()).gid)
    // kubelet's projected token under an fsGroup: 0600, then 0640 with the group.
    assert.equal((statSync(join(tok, 'token')).mode & 0o7777).toString(8), '640')
    await volumes.resync()
    assert.equal(readlinkSync(join(creds, '..data')), ts)
    volumes.stop()
  })
})
