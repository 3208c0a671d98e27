// The Durable Object alarm runs the shared alarms case suite, each case in a fresh object's storage (the watch hub
// class: it has no alarm handler, and the cases set times an hour ahead and delete them, so none ever rings).
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { DurableAlarms } from '../../src/host/alarms'
import { alarmsCases } from './alarms.cases'

let n = 0
const run = Date.now().toString(36)
alarmsCases('durable', (fn) =>
  runInDurableObject(env.WATCH_HUB.getByName(`alarms-${run}-${n++}`), async (_instance, ctx) => {
    try {
      await fn(new DurableAlarms(ctx.storage))
    } finally {
      await ctx.storage.deleteAlarm()
    }
  }),
)
