// Integer query parameters as kube's parameter codec converts them (src/api/query.ts int64Param, strconv.ParseInt):
// past int64, not an integer, or present and empty, each a 400 with strconv's text, on lists, watches and pods/log.
import { describe, expect, it } from 'vitest'
import { makeNamespace, req, sleep } from '../helpers'

describe('int64 query parameters (runtime.Convert_Slice_string_To_int64)', () => {
  it('limit past int64 on a list and a watch: 400 value out of range', async () => {
    const ns = await makeNamespace('q')
    for (const watch of ['', '&watch=1']) {
      const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps?limit=99999999999999999999999${watch}`)
      expect(r.status, r.text).toBe(400)
      expect(r.json).toMatchObject({
        reason: 'BadRequest',
        message: 'strconv.ParseInt: parsing "99999999999999999999999": value out of range',
      })
    }
  })

  it('limit that is not an integer, or empty: 400 invalid syntax', async () => {
    const ns = await makeNamespace('q')
    const abc = await req('GET', `/api/v1/namespaces/${ns}/configmaps?limit=abc`)
    expect(abc.status, abc.text).toBe(400)
    expect(abc.json.message).toBe('strconv.ParseInt: parsing "abc": invalid syntax')
    const empty = await req('GET', `/api/v1/namespaces/${ns}/configmaps?limit=`)
    expect(empty.status, empty.text).toBe(400)
    expect(empty.json.message).toBe('strconv.ParseInt: parsing "": invalid syntax')
  })

  // A '+' in a query is a space (Go's url.ParseQuery reads it so too); %2B is the sign.
  it('the largest int64 and a signed limit are integers', async () => {
    const ns = await makeNamespace('q')
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps?limit=9223372036854775807`)).status).toBe(200)
    expect((await req('GET', `/api/v1/namespaces/${ns}/configmaps?limit=%2B2`)).status).toBe(200)
  })

  it('timeoutSeconds past int64 on a watch: 400', async () => {
    const ns = await makeNamespace('q')
    const r = await req('GET', `/api/v1/namespaces/${ns}/configmaps?watch=1&timeoutSeconds=99999999999999999999`)
    expect(r.status, r.text).toBe(400)
    expect(r.json.message).toBe('strconv.ParseInt: parsing "99999999999999999999": value out of range')
  })

  it('pods/log tailLines past int64: 400, while tailLines=1 reads the log', async () => {
    const ns = await makeNamespace('q')
    await req('POST', `/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    })
    let ok = 0
    for (let i = 0; i < 50 && ok !== 200; i++) {
      ok = (await req('GET', `/api/v1/namespaces/${ns}/pods/p/log?tailLines=1`)).status
      if (ok !== 200) await sleep(50)
    }
    expect(ok).toBe(200)
    const r = await req('GET', `/api/v1/namespaces/${ns}/pods/p/log?tailLines=99999999999999999999999`)
    expect(r.status, r.text).toBe(400)
    expect(r.json.message).toBe('strconv.ParseInt: parsing "99999999999999999999999": value out of range')
  })
})
