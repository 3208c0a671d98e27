// The toolchain works: the Worker answers and the D1 migrations are applied in the test runtime.
import { exports } from 'cloudflare:workers'
import { env } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { withToken } from './helpers'
it('serves /version', async () => {
  const r = await exports.default.fetch('http://x/version', { headers: withToken() })
  expect(r.status).toBe(200)
  const row = await env.DB.prepare('SELECT compacted FROM log_meta').first()
  expect(row).toEqual({ compacted: 0 })
})
