// securityContext on a real node (the process runtime, the agent as the node's own identity): a pod's runAsUser is
// the uid its container runs as and `kubectl exec` runs as; runAsNonRoot on a container that would run as root, and a
// field a host process cannot honour, keep it in CreateContainerConfigError as kubectl shows it. The node may read the
// pull secrets its pods reference (what a container runtime's pull reads as the node), and no other Secret.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, kubectl, parseTable, TEST_TOKENS, uniqueNs } from './helpers.mjs'
import { kubeconfigFor, kubectlWith } from './identity-helpers.mjs'

const node = 'e2e-agent'
const nodeKubeconfig = kubeconfigFor(node, TEST_TOKENS.node)
const namespace = uniqueNs('agent-sec')
const isRoot = process.getuid() === 0
let agent

const pod = (name, securityContext, container = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: {
    nodeName: node,
    terminationGracePeriodSeconds: 2,
    securityContext,
    containers: [{ name: 'main', image: 'sh', command: ['sh', '-c', 'id -u; exec sleep 3600'], ...container }],
  },
})
const create = async (p) => {
  const r = await api('POST', `/api/v1/namespaces/${namespace}/pods`, p)
  assert.equal(r.status, 201, r.text)
}
/** The STATUS column `kubectl get pod <name>` shows. */
const shownStatus = async (name) => {
  const { header, rows } = parseTable((await kubectl('1.33', ['-n', namespace, 'get', 'pod', name])).stdout)
  return rows[0]?.[header.indexOf('STATUS')]
}
const waiting = async (name) =>
  (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body.status?.containerStatuses?.[0]?.state?.waiting

describe('node agent: securityContext (process runtime)', { skip: !isRoot && 'the agent must run as root' }, () => {
  before(async () => {
    agent = startAgent(node, ['--kubeconfig', nodeKubeconfig])
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await nodeRegisteredReady(node)
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`)
    await agent?.stop()
    await api('DELETE', `/api/v1/nodes/${node}`)
  })

  it('runs the container and kubectl exec as runAsUser', async () => {
    await create(pod('nobody', { runAsUser: 65534, runAsNonRoot: true }))
    const logs = await eventually(
      'the pod to print its uid',
      async () => (await kubectl('1.33', ['-n', namespace, 'logs', 'nobody'], { allowFail: true })).stdout,
      60_000,
    ).catch((e) => assert.fail(`${e.message}\n${agent.output()}`))
    assert.equal(logs, '65534\n')
    const exec = await kubectl('1.33', ['-n', namespace, 'exec', 'nobody', '--', 'sh', '-c', 'id -u; id -g'])
    assert.equal(exec.stdout, '65534\n65534\n')
  })

  it('lets the node read the pull secrets its pods reference (what a container runtime’s pull reads), and no other', async () => {
    const dockerconfig = Buffer.from(JSON.stringify({ auths: { 'registry.example': { auth: 'dTpw' } } })).toString(
      'base64',
    )
    for (const name of ['regcred', 'unrelated'])
      await api('POST', `/api/v1/namespaces/${namespace}/secrets`, {
        metadata: { name },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': dockerconfig },
      })
    await create({ ...pod('puller', {}), spec: { ...pod('puller', {}).spec, imagePullSecrets: [{ name: 'regcred' }] } })
    const asNode = (args) => kubectlWith('1.33', nodeKubeconfig, args, { allowFail: true })
    const read = await eventually('the node to be allowed the pull secret', async () => {
      const r = await asNode(['-n', namespace, 'get', 'secret', 'regcred', '-o', 'name'])
      return r.stdout || null
    })
    assert.equal(read, 'secret/regcred\n')
    assert.match(
      (await asNode(['-n', namespace, 'get', 'secret', 'unrelated'])).stderr,
      /no relationship found between node 'e2e-agent' and this object/,
    )
  })

  it('keeps a container that would run as root under runAsNonRoot in CreateContainerConfigError', async () => {
    await create(pod('rooted', { runAsNonRoot: true }))
    await eventually(
      'the refusal',
      async () => (await waiting('rooted'))?.reason === 'CreateContainerConfigError',
      60_000,
    )
    assert.equal(await shownStatus('rooted'), 'CreateContainerConfigError')
    const uid = (await api('GET', `/api/v1/namespaces/${namespace}/pods/rooted`)).body.metadata.uid
    assert.equal(
      (await waiting('rooted')).message,
      `container has runAsNonRoot and image will run as root (pod: "rooted_${namespace}(${uid})", container: main)`,
    )
    const events = await kubectl('1.33', [
      '-n',
      namespace,
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=rooted',
    ])
    assert.match(events.stdout, /Failed\s+pod\/rooted\s+Error: container has runAsNonRoot and image will run as root/)
  })

  it('refuses a field a host process cannot honour (readOnlyRootFilesystem) rather than ignore it', async () => {
    await create(pod('readonly', {}, { securityContext: { readOnlyRootFilesystem: true } }))
    await eventually(
      'the refusal',
      async () => (await waiting('readonly'))?.reason === 'CreateContainerConfigError',
      60_000,
    )
    assert.match((await waiting('readonly')).message, /cannot honour securityContext\.readOnlyRootFilesystem/)
    assert.equal(await shownStatus('readonly'), 'CreateContainerConfigError')
  })
})
