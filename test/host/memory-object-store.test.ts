// The in-memory local state runs the shared case suite.
import { MemoryExpiryStore, MemoryHostState, MemoryTokenStore } from '../../src/host/memory-host-records'
import { MemoryObjectStore } from '../../src/host/memory-object-store'
import { objectStoreCases } from './object-store.cases'

objectStoreCases('memory', async (fn) => {
  await fn((attend) => {
    const state = new MemoryHostState()
    return {
      objects: new MemoryObjectStore(state, 5, attend),
      state,
      tokens: new MemoryTokenStore(),
      expiries: new MemoryExpiryStore(),
    }
  })
})
