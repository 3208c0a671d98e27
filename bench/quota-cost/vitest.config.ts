// Runs bench/quota-cost/ (not part of the unit suite: it seeds thousands of pods) with the unit tests' workerd setup:
// `npm run test:unit -- -c bench/quota-cost/vitest.config.ts`.
import base from '../../vitest.config.ts'

export default {
  ...base,
  test: {
    ...base.test,
    include: ['bench/quota-cost/*.bench-test.ts'],
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
}
