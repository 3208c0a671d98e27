// Tests run inside workerd (@cloudflare/vitest-plugin) with the D1 migrations and zero kubelet delays.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { TEST_TOKENS_CSV } from './test/support/test-tokens.ts'

// A signing key of this run's own, as `npm start` makes one per state directory.
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const { kty, crv, x, y, d } = privateKey.export({ format: 'jwk' })

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations('./migrations'),
          HISTORY_RETAIN: '200',
          // The tests were written against three virtual nodes (330 pods of room), fewer than a server's default.
          VIRTUAL_NODES: '3',
          KUBELET_START_DELAY_MS: '0',
          KUBELET_STOP_DELAY_MS: '0',
          KUBEFLARE_METRICS_FLUSH_MS: '0',
          // No audit lines in the test output; test/api/audit.test.ts gives the app policies of its own.
          KUBEFLARE_AUDIT_POLICY: '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None"}]}',
          KUBEFLARE_TOKENS: TEST_TOKENS_CSV,
          KUBEFLARE_SA_SIGNING_KEY: JSON.stringify({ kty, crv, x, y, d }),
          // Secrets are encrypted at rest under a key of this run's own, as `npm start` makes one per state directory.
          KUBEFLARE_ENCRYPTION_KEY: `key1:${randomBytes(32).toString('base64')}`,
          // What the kube-root-ca.crt ConfigMaps publish (npm start hands the Worker its local CA).
          KUBEFLARE_ROOT_CA: '-----BEGIN CERTIFICATE-----\nkubeflare-test-root-ca\n-----END CERTIFICATE-----\n',
        },
      },
    })),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**'],
    setupFiles: ['./test/apply-migrations.ts'],
    testTimeout: 30_000,
    // Each file runs in a workerd of its own while Vite transforms in this process: vitest's default (one fewer
    // worker than cores) leaves a 2-core CI machine running files one at a time. Measured on one: 1.43x faster.
    maxWorkers: Math.max(2, availableParallelism()),
    // workers-sdk#14736: a DO RPC that rejects, called straight from a test, leaks an unhandled rejection.
    onUnhandledError(err) {
      if ((err as { remote?: boolean }).remote === true) return false
    },
  },
})
