// The in-memory change log runs the shared change-log case suite, each case on a fresh log.
import { MemoryChangeLog } from '../../src/host/memory-change-log'
import { changeLogCases } from './change-log.cases'

let n = 0
changeLogCases('memory', (fn) => fn(new MemoryChangeLog(), () => `scope-${n++}`))
