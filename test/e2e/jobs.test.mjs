// kubectl 1.27 and 1.33 with batch/v1 Jobs and CronJobs against the real server: `create job -- sh -c 'echo hi'`
// then `wait --for=condition=complete` and `logs job/x`, a Job of 5 completions with parallelism 2, kubectl's tables,
// `create cronjob` and `create job --from=cronjob/x`, bad input refused with kube's messages, delete; and the python
// client's BatchV1Api (create, read, patch, delete).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { stringify as toYaml } from 'yaml'
import { KUBECTL_VERSIONS, api, kubectl, parseTable, uniqueNs } from './helpers.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function waitFor(what, fn, ms = 30_000) {
  const until = Date.now() + ms
  for (;;) {
    const last = await fn()
    if (last !== undefined && last !== false) return last
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`)
    await sleep(250)
  }
}

const fiveJob = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'five' },
  spec: {
    completions: 5,
    parallelism: 2,
    template: {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'work', image: 'busybox', command: ['sh', '-c', 'echo done'] }],
      },
    },
  },
}

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}: jobs and cronjobs`, () => {
    const ns = uniqueNs(`job${v.replace('.', '')}`)
    const k = (args, opts) => kubectl(v, ['-n', ns, ...args], opts)

    after(async () => {
      await kubectl(v, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true, timeout: 20_000 })
    })

    it("create job -- sh -c 'echo hi', wait --for=condition=complete, logs, get jobs", async () => {
      await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
      assert.match(
        (await k(['create', 'job', 'x', '--image=busybox', '--', 'sh', '-c', 'echo hi'])).stdout,
        /job.batch\/x created/,
      )
      const waited = await k(['wait', '--for=condition=complete', 'job/x', '--timeout=60s'], { timeout: 70_000 })
      assert.match(waited.stdout, /job.batch\/x condition met/)
      assert.equal((await k(['logs', 'job/x'])).stdout, 'hi\n')
      const t = parseTable((await k(['get', 'jobs'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'])
      assert.deepEqual(t.rows[0].slice(0, 3), ['x', 'Complete', '1/1'])
      const wide = parseTable((await k(['get', 'job', 'x', '-o', 'wide'])).stdout)
      assert.deepEqual(wide.header.slice(5), ['CONTAINERS', 'IMAGES', 'SELECTOR'])
      assert.deepEqual(wide.rows[0].slice(5, 7), ['x', 'busybox'])
      assert.match(wide.rows[0][7], /^batch\.kubernetes\.io\/controller-uid=[0-9a-f-]{36}$/)
    })

    it('a Job of 5 completions with parallelism 2 completes', async () => {
      await k(['apply', '-f', '-'], { input: toYaml(fiveJob) })
      await k(['wait', '--for=condition=complete', 'job/five', '--timeout=90s'], { timeout: 100_000 })
      const job = JSON.parse((await k(['get', 'job', 'five', '-o', 'json'])).stdout)
      assert.equal(job.status.succeeded, 5)
      assert.deepEqual(
        job.status.conditions.map((c) => [c.type, c.status, c.reason]),
        [
          ['SuccessCriteriaMet', 'True', 'CompletionsReached'],
          ['Complete', 'True', 'CompletionsReached'],
        ],
      )
      const pods = parseTable((await k(['get', 'pods', '-l', 'job-name=five'])).stdout)
      assert.equal(pods.rows.length, 5)
      assert.ok(
        pods.rows.every((r) => r[2] === 'Completed'),
        JSON.stringify(pods.rows),
      )
      const described = (await k(['describe', 'job', 'five'])).stdout
      assert.match(described, /Completions:\s+5/)
      assert.match(described, /Parallelism:\s+2/)
    })

    it('create cronjob, get cronjobs, create job --from=cronjob/x', async () => {
      await k(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *', '--', 'sh', '-c', 'echo tick'])
      const t = parseTable((await k(['get', 'cronjobs'])).stdout)
      assert.deepEqual(t.header, ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'])
      assert.deepEqual(t.rows[0].slice(0, 6), ['tick', '*/5 * * * *', '<none>', 'False', '0', '<none>'])
      assert.match((await k(['create', 'job', 'manual', '--from=cronjob/tick'])).stdout, /job.batch\/manual created/)
      await k(['wait', '--for=condition=complete', 'job/manual', '--timeout=60s'], { timeout: 70_000 })
      const manual = JSON.parse((await k(['get', 'job', 'manual', '-o', 'json'])).stdout)
      assert.equal(manual.metadata.annotations['cronjob.kubernetes.io/instantiate'], 'manual')
      assert.equal(manual.metadata.ownerReferences[0].kind, 'CronJob')
      assert.equal(manual.metadata.ownerReferences[0].name, 'tick')
      assert.equal((await k(['logs', 'job/manual'])).stdout, 'tick\n')
    })

    it('bad input is refused with kube’s messages', async () => {
      const schedule = await k(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=61 * * * *'], {
        allowFail: true,
      })
      assert.notEqual(schedule.code, 0)
      assert.match(
        schedule.stderr,
        /CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "61 \* \* \* \*": end of range \(61\) above maximum \(59\): 61/,
      )
      const bad = structuredClone(fiveJob)
      bad.metadata.name = 'bad'
      bad.spec.parallelism = -1
      bad.spec.template.spec.restartPolicy = 'Always'
      const job = await k(['apply', '-f', '-'], { input: toYaml(bad), allowFail: true })
      assert.notEqual(job.code, 0)
      assert.match(job.stderr, /spec.parallelism: Invalid value: -1: must be greater than or equal to 0/)
      assert.match(job.stderr, /spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"/)
      const tz = await k(['apply', '-f', '-'], {
        input: toYaml({
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: { name: 'tz' },
          spec: {
            schedule: '@daily',
            timeZone: 'Mars/Olympus',
            jobTemplate: { spec: { template: fiveJob.spec.template } },
          },
        }),
        allowFail: true,
      })
      assert.match(tz.stderr, /spec.timeZone: Invalid value: "Mars\/Olympus": unknown time zone Mars\/Olympus/)
      const immutable = await k(['patch', 'job', 'x', '--type=merge', '-p', '{"spec":{"completions":3}}'], {
        allowFail: true,
      })
      assert.match(immutable.stderr, /spec.completions: Invalid value: 3: field is immutable/)
    })

    it('server-side apply of a Job (create, then a change of labels), and kubectl explain', async () => {
      const held = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'held', labels: { tier: 'a' } },
        spec: { suspend: true, template: fiveJob.spec.template },
      }
      assert.match(
        (await k(['apply', '--server-side', '-f', '-'], { input: toYaml(held) })).stdout,
        /job.batch\/held serverside-applied/,
      )
      held.metadata.labels.tier = 'b'
      await k(['apply', '--server-side', '-f', '-'], { input: toYaml(held) })
      // kubectl hides managedFields: read the Job through the API.
      const job = (await api('GET', `/apis/batch/v1/namespaces/${ns}/jobs/held`)).body
      assert.equal(job.metadata.labels.tier, 'b')
      assert.ok(job.metadata.managedFields.some((m) => m.manager === 'kubectl' && m.operation === 'Apply'))
      await waitFor('the Suspended condition', async () => {
        const j = JSON.parse((await k(['get', 'job', 'held', '-o', 'json'])).stdout)
        return (j.status.conditions ?? []).some((c) => c.type === 'Suspended' && c.status === 'True') ? j : undefined
      })
      const explained = (await k(['explain', 'cronjob.spec.schedule'])).stdout
      assert.match(explained, /KIND:\s+CronJob/)
      assert.match(explained, /schedule/)
    })

    it('delete job takes its pods along (kubectl sends Background)', async () => {
      await k(['delete', 'job', 'five'])
      await waitFor('five’s pods to go', async () => {
        const left = (await api('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=job-name%3Dfive`)).body.items
        return left.length === 0 ? true : undefined
      })
    })
  })
}

describe('python client: BatchV1Api', () => {
  it('creates, reads, patches and deletes a Job', () => {
    const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
    const ns = uniqueNs('pyjob')
    const r = spawnSync(python, [join(import.meta.dirname, 'python', 'batch_job.py'), ns], {
      encoding: 'utf8',
      timeout: 90_000,
      env: process.env,
    })
    assert.equal(r.status, 0, `batch_job.py exited ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`)
    const checks = Object.fromEntries(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .map((c) => [c.check, c]),
    )
    assert.deepEqual(checks.create, {
      check: 'create',
      name: 'py-job',
      completions: 2,
      parallelism: 1,
      backoff_limit: 6,
      completion_mode: 'NonIndexed',
      selector_keys: ['batch.kubernetes.io/controller-uid'],
    })
    assert.deepEqual(checks.read, { check: 'read', succeeded: 2, complete: true })
    assert.deepEqual(checks.patch, { check: 'patch', labels: { team: 'batch' }, generation: 1 })
    assert.deepEqual(checks.delete, { check: 'delete', status: 'Success', gone: true, pods_left: 0 })
    assert.deepEqual(checks.invalid, {
      check: 'invalid',
      status: 422,
      message: 'Job.batch "bad" is invalid: spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
    })
  })
})
