// The simulated cluster end to end with zero delays: scheduled, Running, completion and logs.
import { describe, expect, it } from 'vitest'
import { makeNamespace, pod, req, waitFor } from '../helpers'

describe('pod lifecycle on virtual nodes (zero delays)', () => {
  it('schedules, starts, and runs a pod', async () => {
    const ns = await makeNamespace('lc')
    const c = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod('web'))
    expect(c.status, c.text).toBe(201)
    const running = await waitFor(async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/pods/web`)
      return g.json.status.phase === 'Running' ? g.json : undefined
    })
    expect(running.spec.nodeName).toMatch(/^node-/)
    expect(running.status.podIP).toMatch(/^10\.244\./)
    expect(running.status.conditions.find((x: any) => x.type === 'Ready').status).toBe('True')
  })
})

describe('completion and deadlines', () => {
  it('a Never pod whose program exits completes when its sleep is over', async () => {
    const ns = await makeNamespace('lc')
    const p = pod('job', {}, { restartPolicy: 'Never' })
    ;(p.spec.containers[0] as any).command = ['sh', '-c', 'echo start; sleep 1; echo done']
    expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, p)).status).toBe(201)
    const done = await waitFor(async () => {
      const g = await req('GET', `/api/v1/namespaces/${ns}/pods/job`)
      return g.json.status.phase === 'Succeeded' ? g.json : undefined
    }, 8000)
    expect(done.status.containerStatuses[0].state.terminated.reason).toBe('Completed')
    const log = await req('GET', `/api/v1/namespaces/${ns}/pods/job/log`)
    expect(log.text).toBe('start\ndone\n')
  })
})
