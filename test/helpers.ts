// Shared test helpers: requests through the Worker, JSON bodies, unique namespaces.
import { exports } from 'cloudflare:workers'

export const BASE = 'http://kube.test'

export async function req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers } }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
  }
  const res = await exports.default.fetch(new Request(BASE + path, init))
  const text = await res.text()
  let json: any
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

let counter = 0
export async function makeNamespace(prefix = 'ns'): Promise<string> {
  const name = `${prefix}-${Date.now().toString(36)}-${counter++}`
  const r = await req('POST', '/api/v1/namespaces', { metadata: { name } })
  if (r.status !== 201) throw new Error(`namespace create failed: ${r.status} ${r.text}`)
  return name
}

export const pod = (name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...extra },
})
