// --runtime: process unless asked, one of process, docker, podman or auto, and in the usage text.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { FlagError, parseFlags, USAGE } from '../../../agent/flags.ts'

describe('--runtime', () => {
  it('is process by default and takes the four choices', () => {
    assert.equal(parseFlags(['--kubeconfig', '/k'], {}).runtime, 'process')
    for (const r of ['process', 'docker', 'podman', 'auto'])
      assert.equal(parseFlags(['--kubeconfig', '/k', '--runtime', r], {}).runtime, r)
    assert.match(USAGE, /--runtime R {2,}what runs containers: process/)
  })

  it('refuses anything else', () => {
    assert.throws(
      () => parseFlags(['--kubeconfig', '/k', '--runtime=containerd'], {}),
      (e) =>
        e instanceof FlagError && e.message === '--runtime: "containerd" is not one of process, docker, podman, auto',
    )
  })
})
