// The D1 change log (src/log/d1-log.ts) runs the shared change-log case suite against the test D1 database.
// D1 storage is isolated per test file, so compacting here cannot disturb another file's log; within this file the
// cases share it, and each keeps to scopes of its own.
import { env } from 'cloudflare:workers'
import { D1Log } from '../../src/log/d1-log'
import { changeLogCases } from './change-log.cases'

let n = 0
const run = Date.now().toString(36)
changeLogCases('d1', (fn) => fn(new D1Log(env.DB), () => `d1-change-log-${run}-${n++}`))
