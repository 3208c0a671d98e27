// The agent's command line.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { goDuration, parseDuration } from '../../agent/durations.ts'
import { FlagError, parseFlags } from '../../agent/flags.ts'

describe('parseFlags', () => {
  it('reads the flags, with kube defaults for the intervals', () => {
    const c = parseFlags(
      [
        '--kubeconfig',
        '/k',
        '--node-name=Edge-1',
        '--image-default',
        'nginx=["nginx","-g","daemon off;"]',
        '--image-default',
        'redis=redis-server --port 6379',
        '--node-labels',
        'zone=a,tier=edge',
        '--backoff-initial',
        '1s',
      ],
      {},
    )
    assert.equal(c.kubeconfig, '/k')
    assert.equal(c.nodeName, 'edge-1')
    assert.deepEqual(c.imageDefaults.get('nginx'), ['nginx', '-g', 'daemon off;'])
    assert.deepEqual(c.imageDefaults.get('redis'), ['redis-server', '--port', '6379'])
    assert.deepEqual(c.labels, { zone: 'a', tier: 'edge' })
    assert.equal(c.statusUpdateMs, 10_000)
    assert.equal(c.leaseDurationMs, 40_000)
    assert.equal(c.backoffInitialMs, 1000)
    assert.equal(c.backoffMaxMs, 300_000)
    assert.equal(c.maxPods, 110)
    assert.equal(c.stopPodsOnExit, false)
  })

  it('reads --stop-pods-on-exit alone or with a value', () => {
    const on = (args) => parseFlags(['--kubeconfig', 'k', ...args], {}).stopPodsOnExit
    assert.equal(on(['--stop-pods-on-exit', '--node-name', 'n']), true)
    assert.equal(on(['--stop-pods-on-exit=false']), false)
    assert.equal(on(['--stop-pods-on-exit=true']), true)
    assert.throws(() => on(['--stop-pods-on-exit=maybe']), /--stop-pods-on-exit: "maybe" is not true or false/)
  })

  it('takes KUBECONFIG from the environment', () => {
    assert.equal(parseFlags(['--node-name', 'n'], { KUBECONFIG: '/from/env' }).kubeconfig, '/from/env')
  })

  it('refuses what it cannot use', () => {
    assert.throws(() => parseFlags(['--node-name', 'n'], {}), FlagError)
    assert.throws(() => parseFlags(['--kubeconfig', 'k', '--bogus', 'x'], {}), /unknown flag --bogus/)
    assert.throws(() => parseFlags(['--kubeconfig', 'k', '--node-name', 'bad_name'], {}), /not a valid node name/)
    assert.throws(() => parseFlags(['--kubeconfig', 'k', '--backoff-max', 'soon'], {}), /--backoff-max/)
    assert.throws(() => parseFlags(['--kubeconfig'], {}), /needs a value/)
  })
})

describe('parseDuration', () => {
  it('reads Go-style durations', () => {
    assert.equal(parseDuration('300ms'), 300)
    assert.equal(parseDuration('1m30s'), 90_000)
    assert.equal(parseDuration('2'), 2000)
    assert.throws(() => parseDuration('1x'))
  })
})

describe('goDuration', () => {
  it("prints as Go's Duration.String", () => {
    assert.deepEqual([300, 1200, 10_000, 300_000, 90_500, 3_600_000].map(goDuration), [
      '300ms',
      '1.2s',
      '10s',
      '5m0s',
      '1m30.5s',
      '1h0m0s',
    ])
  })
})
