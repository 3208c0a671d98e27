// The Job strategy through the pure store, table-driven against kube 1.33: SetDefaults_Job and the generated selector
// (a Job as a 1.33 apiserver stores it), ValidateJob's messages (spec fields, policies, template, generated selector),
// ValidateJobUpdate's immutability and ValidateJobUpdateStatus's transitions.
import { describe, expect, it } from 'vitest'
import { resourceByPlural } from '../../../../src/registry/resources'
import type { Result, Status } from '../../../../src/registry/status'
import { statusDefOf } from '../../../../src/registry/status-subresource'
import { planCreate, planUpdate, type Stored } from '../../../../src/registry/store'
import type { KubeObject } from '../../../../src/schema/meta'

const ctx = { now: new Date('2026-01-01T00:00:00Z'), namespace: 'default' }
const jobs = () => resourceByPlural('jobs')!

type Obj = Record<string, any>
const job = (spec: Obj = {}, meta: Obj = {}): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi', namespace: 'default', ...meta },
  spec: {
    template: {
      spec: { containers: [{ name: 'pi', image: 'perl', command: ['perl', '-e', 'print 1'] }], restartPolicy: 'Never' },
    },
    ...spec,
  },
})

const create = (body: KubeObject) => planCreate(jobs(), ctx, structuredClone(body), () => false)
function stored(body: KubeObject): Stored {
  const r = create(body)
  if (!r.ok) throw new Error(r.status.message)
  r.value.object.metadata.resourceVersion = '7'
  return { rv: 7, object: r.value.object }
}
const update = (current: Stored, body: KubeObject) =>
  planUpdate(jobs(), ctx, current.object.metadata.name!, structuredClone(body), current)
const statusUpdate = (current: Stored, body: KubeObject) =>
  planUpdate(statusDefOf(jobs())!, ctx, current.object.metadata.name!, structuredClone(body), current)
function refusal(r: Result<unknown>): Status {
  if (r.ok) throw new Error('expected a refusal')
  return r.status
}

describe('Job defaults and the generated selector', () => {
  it('stores what a 1.33 apiserver stores for a plain Job', () => {
    const r = create(job())
    if (!r.ok) throw new Error(r.status.message)
    const o = r.value.object as Obj
    const uid = o.metadata.uid
    const labels = {
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    }
    expect(o.metadata.labels).toEqual(labels)
    expect(o.metadata.generation).toBe(1)
    expect(o.spec).toMatchObject({
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      completions: 1,
      manualSelector: false,
      parallelism: 1,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      suspend: false,
    })
    expect(o.spec.template.metadata.labels).toEqual(labels)
    expect(o.spec.template.spec).toMatchObject({
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Never',
      schedulerName: 'default-scheduler',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
    })
    expect(o.status).toEqual({})
  })

  it('keeps the Job’s own labels, defaults parallelism alone, and backoffLimit to MaxInt32 with a per-index limit', () => {
    const r = create(
      job({ completions: 4, completionMode: 'Indexed', backoffLimitPerIndex: 1 }, { labels: { team: 'a' } }),
    )
    if (!r.ok) throw new Error(r.status.message)
    const o = r.value.object as Obj
    expect(o.metadata.labels).toEqual({ team: 'a' })
    expect(o.spec).toMatchObject({ completions: 4, parallelism: 1, backoffLimit: 2147483647 })
  })

  it('a pod failure policy makes podReplacementPolicy Failed and pattern statuses True', () => {
    const r = create(
      job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }),
    )
    if (!r.ok) throw new Error(r.status.message)
    const o = r.value.object as Obj
    expect(o.spec.podReplacementPolicy).toBe('Failed')
    expect(o.spec.podFailurePolicy.rules[0].onPodConditions[0].status).toBe('True')
  })

  it('manualSelector: the caller’s selector and labels are kept as they are', () => {
    const r = create(
      job({
        manualSelector: true,
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: (job().spec as Obj).template.spec },
      }),
    )
    if (!r.ok) throw new Error(r.status.message)
    const o = r.value.object as Obj
    expect(o.spec.selector).toEqual({ matchLabels: { app: 'x' } })
    expect(o.spec.template.metadata.labels).toEqual({ app: 'x' })
  })
})

describe('Job validation (ValidateJob)', () => {
  const tpl = (spec: Obj) => ({ spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } })
  const cases: [string, KubeObject, string][] = [
    [
      'negative counts',
      job({
        parallelism: -1,
        completions: -2,
        activeDeadlineSeconds: -3,
        backoffLimit: -4,
        ttlSecondsAfterFinished: -5,
      }),
      'Job.batch "pi" is invalid: [spec.parallelism: Invalid value: -1: must be greater than or equal to 0, spec.completions: Invalid value: -2: must be greater than or equal to 0, spec.activeDeadlineSeconds: Invalid value: -3: must be greater than or equal to 0, spec.backoffLimit: Invalid value: -4: must be greater than or equal to 0, spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0]',
    ],
    [
      'restartPolicy left to its default',
      job({ template: tpl({}) }),
      'Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ],
    [
      'an unknown completion mode',
      job({ completionMode: 'Sometimes' }),
      'Job.batch "pi" is invalid: spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"',
    ],
    [
      'Indexed without completions',
      job({ completionMode: 'Indexed', parallelism: 2 }),
      'Job.batch "pi" is invalid: spec.completions: Required value: when completion mode is Indexed',
    ],
    [
      'per-index limits on a NonIndexed Job',
      job({ backoffLimitPerIndex: 1, maxFailedIndexes: 1 }),
      'Job.batch "pi" is invalid: [spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode, spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode]',
    ],
    [
      'a pod failure policy with OnFailure pods',
      job({
        podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1] } }] },
        template: tpl({ restartPolicy: 'OnFailure' }),
      }),
      'Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ],
    [
      'pod failure policy rules: action, operator, values, container, matchers',
      job({
        podFailurePolicy: {
          rules: [
            { action: 'Explode', onExitCodes: { containerName: 'nope', operator: 'In', values: [3, 0, 3, 1] } },
            { action: '' },
            {
              action: 'Count',
              onExitCodes: { operator: 'Sometimes', values: [] },
              onPodConditions: [{ type: 'x y', status: 'Maybe' }],
            },
          ],
        },
      }),
      'Job.batch "pi" is invalid: [spec.podFailurePolicy.rules[0].action: Unsupported value: "Explode": supported values: "Count", "FailIndex", "FailJob", "Ignore", spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "nope": must be one of the container or initContainer names in the pod template, spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator, spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3, spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 3, 1}: must be ordered, spec.podFailurePolicy.rules[1].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"], spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required, spec.podFailurePolicy.rules[2].onExitCodes.operator: Unsupported value: "Sometimes": supported values: "In", "NotIn", spec.podFailurePolicy.rules[2].onExitCodes.values: Invalid value: []int32{}: at least one value is required, spec.podFailurePolicy.rules[2].onPodConditions[0].type: Invalid value: "x y": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), spec.podFailurePolicy.rules[2].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown", spec.podFailurePolicy.rules[2]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported]',
    ],
    [
      'FailIndex without backoffLimitPerIndex',
      job({ podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }] } }),
      'Job.batch "pi" is invalid: spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
    ],
    [
      'a success policy on a NonIndexed Job',
      job({ successPolicy: { rules: [{ succeededCount: 1 }] } }),
      'Job.batch "pi" is invalid: spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{batch.SuccessPolicyRule{SucceededIndexes:(*string)(nil), SucceededCount:(*int32)(0xc000000000)}}}: requires indexed completion mode',
    ],
    [
      'success policy rules of an Indexed Job',
      job({
        completionMode: 'Indexed',
        completions: 5,
        successPolicy: {
          rules: [{}, { succeededIndexes: '0-2,1', succeededCount: 9 }, { succeededIndexes: '1-2', succeededCount: 3 }],
        },
      }),
      'Job.batch "pi" is invalid: [spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified, spec.successPolicy.rules[1].succeededIndexes: Invalid value: "0-2,1": error parsing succeededIndexes: non-increasing order, previous: 2, current: 1, spec.successPolicy.rules[1].succeededCount: Invalid value: 9: must be less than or equal to 5 (the number of specified completions), spec.successPolicy.rules[1].succeededCount: Invalid value: 9: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field), spec.successPolicy.rules[2].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)]',
    ],
    [
      'a replacement policy other than Failed with a pod failure policy',
      job({
        podReplacementPolicy: 'TerminatingOrFailed',
        podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }] },
      }),
      'Job.batch "pi" is invalid: spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
    ],
    [
      'managedBy that is not a domain-prefixed path',
      job({ managedBy: 'mine' }),
      'Job.batch "pi" is invalid: spec.managedBy: Invalid value: "mine": must be a domain-prefixed path (such as "acme.io/foo")',
    ],
    [
      'an Indexed Job whose last pod name would not be a DNS label',
      job({ completionMode: 'Indexed', completions: 10 }, { name: 'Pi' }),
      "Job.batch \"Pi\" is invalid: [metadata.name: Invalid value: \"Pi\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), metadata.name: Invalid value: \"Pi\": will not able to create pod with invalid DNS label: Pi-9]",
    ],
    [
      'a generated selector the template labels contradict',
      job({ template: { metadata: { labels: { 'job-name': 'other' } }, spec: (job().spec as Obj).template.spec } }),
      `Job.batch "pi" is invalid: spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"UID", "batch.kubernetes.io/job-name":"pi", "controller-uid":"UID", "job-name":"other"}: must be 'pi'`,
    ],
    [
      'a manual selector that does not match the template',
      job({ manualSelector: true, selector: { matchLabels: { app: 'x' } } }),
      'Job.batch "pi" is invalid: spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
    ],
    [
      'a manual Job without a selector',
      job({ manualSelector: true }),
      'Job.batch "pi" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`]',
    ],
  ]
  for (const [name, body, message] of cases) {
    it(name, () => {
      const s = refusal(create(body))
      expect(s.code).toBe(422)
      expect(s.reason).toBe('Invalid')
      // The generated uid differs per run.
      expect(s.message!.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UID')).toBe(message)
    })
  }
})

describe('Job updates (ValidateJobUpdate)', () => {
  it('bumps generation on spec changes; parallelism and suspend may change', () => {
    const current = stored(job())
    const next = structuredClone(current.object) as Obj
    next.spec.parallelism = 3
    next.spec.suspend = true
    const r = update(current, next as KubeObject)
    if (!r.ok) throw new Error(r.status.message)
    expect(r.value.object.metadata.generation).toBe(2)
  })

  it('refuses changes of completions, selector, template and the policies, naming each field', () => {
    const current = stored(job())
    const next = structuredClone(current.object) as Obj
    next.spec.completions = 2
    next.spec.selector = { matchLabels: { a: 'b' } }
    next.spec.template.spec.containers[0].image = 'perl:2'
    next.spec.podFailurePolicy = { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }] }
    const s = refusal(update(current, next as KubeObject))
    expect(s.message).toContain('spec.completions: Invalid value: 2: field is immutable')
    expect(s.message).toContain(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    )
    expect(s.message).toContain('spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable')
    expect(s.message).toContain(
      'spec.podFailurePolicy: Invalid value: batch.PodFailurePolicy{Rules:[]batch.PodFailurePolicyRule{batch.PodFailurePolicyRule{Action:"Ignore", OnExitCodes:(*batch.PodFailurePolicyOnExitCodesRequirement)(0xc000000000), OnPodConditions:[]batch.PodFailurePolicyOnPodConditionsPattern(nil)}}}: field is immutable',
    )
    // Errors of the spec itself are reported once: kube's ValidateUpdate validates the spec twice, and the message
    // drops repeated errors.
    expect(s.message!.match(/`selector` not auto-generated/g)).toHaveLength(1)
  })

  it('refuses a change of completion mode', () => {
    const current = stored(job({ completionMode: 'Indexed', completions: 2 }))
    const next = structuredClone(current.object) as Obj
    next.spec.completionMode = 'NonIndexed'
    expect(refusal(update(current, next as KubeObject)).message).toBe(
      'Job.batch "pi" is invalid: spec.completionMode: Invalid value: "NonIndexed": field is immutable',
    )
  })

  it('an Indexed Job may scale completions together with parallelism', () => {
    const current = stored(job({ completionMode: 'Indexed', completions: 3, parallelism: 3 }))
    const next = structuredClone(current.object) as Obj
    next.spec.completions = 5
    const s = refusal(update(current, next as KubeObject))
    expect(s.message).toContain(
      'spec.completions: Invalid value: 5: can only be modified in tandem with spec.parallelism',
    )
    next.spec.parallelism = 5
    expect(update(current, next as KubeObject).ok).toBe(true)
  })

  it('a suspended Job that never started may change its scheduling directives', () => {
    const current = stored(job({ suspend: true }))
    const next = structuredClone(current.object) as Obj
    next.spec.template.spec.nodeSelector = { zone: 'a' }
    next.spec.template.metadata.annotations = { note: 'x' }
    expect(update(current, next as KubeObject).ok).toBe(true)
    next.spec.template.spec.containers[0].image = 'other'
    expect(refusal(update(current, next as KubeObject)).message).toContain('spec.template: Invalid value')
  })
})

describe('Job status updates (ValidateJobUpdateStatus)', () => {
  const withStatus = (current: Stored, status: Obj) => ({ ...structuredClone(current.object), status }) as KubeObject
  const t0 = '2026-01-01T00:00:00Z'
  const cond = (type: string) => ({ type, status: 'True', lastProbeTime: t0, lastTransitionTime: t0 })

  it('takes the controller’s sequence: SuccessCriteriaMet, then Complete with completionTime', () => {
    const current = stored(job())
    const a = statusUpdate(current, withStatus(current, { startTime: t0, active: 1, ready: 0, terminating: 0 }))
    if (!a.ok) throw new Error(a.status.message)
    const mid: Stored = { rv: 8, object: a.value.object }
    const b = statusUpdate(
      mid,
      withStatus(mid, { startTime: t0, succeeded: 1, conditions: [cond('SuccessCriteriaMet')] }),
    )
    if (!b.ok) throw new Error(b.status.message)
    const done: Stored = { rv: 9, object: b.value.object }
    const c = statusUpdate(
      done,
      withStatus(done, {
        startTime: t0,
        completionTime: t0,
        succeeded: 1,
        conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
      }),
    )
    expect(c.ok).toBe(true)
  })

  it('refuses inconsistent terminal states and shrinking counters', () => {
    const current = stored(job())
    const base = statusUpdate(current, withStatus(current, { startTime: t0, failed: 2 }))
    if (!base.ok) throw new Error(base.status.message)
    const mid: Stored = { rv: 8, object: base.value.object }
    const s = refusal(
      statusUpdate(
        mid,
        withStatus(mid, {
          startTime: t0,
          failed: 1,
          active: 1,
          ready: 2,
          conditions: [cond('Complete'), cond('Failed')],
        }),
      ),
    )
    expect(s.message).toBe(
      'Job.batch "pi" is invalid: [status.conditions: Invalid value: cannot set Complete=True and Failed=true conditions, status.completionTime: Required value: completionTime is required for Complete jobs, status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition, status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition, status.active: Invalid value: 1: active>0 is invalid for finished job, status.ready: Invalid value: 2: cannot set more ready pods than active, status.failed: Invalid value: 1: cannot decrease the failed counter]',
    )
  })
})
