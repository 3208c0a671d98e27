// The python client's AppsV1Api against the server (Debian's python3-kubernetes): create, read, patch (a rollout),
// scale and delete a Deployment, and kube's 422 for a template its selector does not match.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { pythonChecks, uniqueNs } from './helpers.mjs'

const runScript = (script) => pythonChecks(script, [uniqueNs('pyapps')], 120_000)

describe('python client AppsV1Api', () => {
  it('creates, reads, patches, scales and deletes a Deployment', () => {
    const c = runScript('apps_deployment.py')
    assert.deepEqual(c.create, {
      check: 'create',
      name: 'py-web',
      generation: 1,
      strategy: 'RollingUpdate',
      max_surge: '25%',
      revision_history_limit: 10,
      progress_deadline_seconds: 600,
    })
    assert.deepEqual(c.read, {
      check: 'read',
      ready: 2,
      available: 2,
      revision: '1',
      conditions: [
        ['Available', 'True', 'MinimumReplicasAvailable'],
        ['Progressing', 'True', 'NewReplicaSetAvailable'],
      ],
    })
    assert.deepEqual(c.patch, {
      check: 'patch',
      revision: '2',
      images: [
        ['nginx:1.25', 0],
        ['nginx:1.26', 2],
      ],
    })
    assert.deepEqual(c.scale, { check: 'scale', before: 2, selector: 'app=py-web', after: 3 })
    assert.deepEqual(c.delete, { check: 'delete', status: 404, reason: 'NotFound' })
    assert.equal(c.invalid.status, 422)
    assert.equal(
      c.invalid.message,
      'Deployment.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
    )
  })
})
