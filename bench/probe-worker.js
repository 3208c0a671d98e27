// A measuring probe for `npm run bench`, run as a third worker in the bench's Miniflare (route prefix /__probe/).
// GET /__probe/stats?ns=<namespace> calls the namespace Durable Object's stats() RPC (wakes, watchers) through a
// binding to kubeflare's own NAMESPACES class, exactly as kubeflare's Worker reaches it: a stub scoped to this one
// request. (A stub obtained through Miniflare's Node-side proxy, mf.getDurableObjectNamespace(), stays referenced by
// the proxy and keeps the object from ever being evicted, which would defeat the idle measurement.)
export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    if (url.pathname === '/__probe/stats') {
      const stats = await env.NAMESPACES.getByName(url.searchParams.get('ns') ?? '').stats()
      return Response.json(stats)
    }
    return new Response('not found', { status: 404 })
  },
}
