// In-cluster access from a pod on a real node (the agent as system:node:e2e-agent, process runtime), as programs in
// kube's pods have it: ServiceAccount admission's kube-api-access volume (token, ca.crt, namespace) at
// /var/run/secrets/kubernetes.io/serviceaccount and the kubelet's KUBERNETES_SERVICE_* variables (the API server the
// agent uses). kubectl 1.33 with no kubeconfig (client-go's InClusterConfig, verifying the server with that ca.crt) and
// the python client's load_incluster_config() act as the pod's ServiceAccount: allowed or denied by RBAC.
import assert from 'node:assert/strict'
import { existsSync, rmdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventually, nodeRegisteredReady, startAgent } from './agent-process.mjs'
import { api, KUBECTL_DIR, KUBEFLARE_URL, kubectl, TEST_TOKENS, uniqueNs } from './helpers.mjs'
import { kubeconfigFor } from './identity-helpers.mjs'

const node = 'e2e-agent'
const nodeKubeconfig = kubeconfigFor(node, TEST_TOKENS.node)
const namespace = uniqueNs('incl')
const kubectlBin = join(KUBECTL_DIR, 'kubectl.1.33')
const TOKEN_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'
/** The mount point and its parents the process runtime makes on the host, removed after when they were not there. */
const mountPoints = [TOKEN_DIR, '/var/run/secrets/kubernetes.io', '/var/run/secrets']
const existedBefore = new Set(mountPoints.filter((p) => existsSync(p)))
let agent

const k = (args, opts) => kubectl('1.33', ['-n', namespace, ...args], opts)
const apply = (yaml) => k(['apply', '-f', '-'], { input: yaml })
const getPod = async (name) => (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body
/** The pod's one container once it ended: its exit code and log. */
async function finished(name) {
  const state = await eventually(
    `${name} to finish`,
    async () => (await getPod(name)).status?.containerStatuses?.[0]?.state?.terminated,
    90_000,
  )
  return { exitCode: state.exitCode, log: (await k(['logs', name])).stdout }
}

const pod = (name, serviceAccount, command) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  nodeName: ${node}
  serviceAccountName: ${serviceAccount}
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  containers:
    - name: main
      image: busybox
      command: [ "/bin/sh", "-c", ${JSON.stringify(command)} ]
`

describe('in-cluster access from a pod on a real node', () => {
  before(async () => {
    agent = startAgent(node, ['--kubeconfig', nodeKubeconfig])
    await api('POST', '/api/v1/namespaces', { metadata: { name: namespace } })
    await apply(`
apiVersion: v1
kind: ServiceAccount
metadata:
  name: reader
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
rules:
  - apiGroups: [""]
    resources: ["pods"]
    verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: reader-reads-pods
subjects:
  - kind: ServiceAccount
    name: reader
    namespace: ${namespace}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: pod-reader
`)
    await nodeRegisteredReady(node)
    // The namespace's default ServiceAccount, which the pod denied below runs as.
    await eventually('the default ServiceAccount', async () => {
      return (await api('GET', `/api/v1/namespaces/${namespace}/serviceaccounts/default`)).status === 200
    })
  })
  after(async () => {
    await api('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined)
    await agent?.stop()
    for (const path of mountPoints) {
      if (existedBefore.has(path)) continue
      try {
        rmdirSync(path)
      } catch {
        // not there, or not empty (another pod's mount point)
      }
    }
    await api('DELETE', `/api/v1/nodes/${node}`).catch(() => undefined)
  })

  it('kubectl in the pod, with no kubeconfig, lists pods as its ServiceAccount, which RBAC allows', async () => {
    await apply(
      pod(
        'lister',
        'reader',
        `echo "host=$KUBERNETES_SERVICE_HOST port=$KUBERNETES_SERVICE_PORT"; ls ${TOKEN_DIR}; ${kubectlBin} get pods -o name`,
      ),
    )
    const { exitCode, log } = await finished('lister')
    assert.equal(exitCode, 0, log + agent.output().slice(-2000))
    // The API server the agent dials (its kubeconfig's), not a ClusterIP no kube-proxy serves here.
    const server = new URL(KUBEFLARE_URL)
    const lines = log.trim().split('\n')
    assert.equal(lines[0], `host=${server.hostname} port=${server.port || '443'}`)
    assert.deepEqual(lines.slice(1, 4), ['ca.crt', 'namespace', 'token'])
    assert.ok(lines.includes('pod/lister'), log)
  })

  it('is denied what the ServiceAccount may not do, with the API’s Forbidden naming it', async () => {
    await apply(pod('denied', 'default', `${kubectlBin} get pods`))
    const { exitCode, log } = await finished('denied')
    assert.notEqual(exitCode, 0, log)
    assert.match(
      log,
      new RegExp(
        `pods is forbidden: User "system:serviceaccount:${namespace}:default" cannot list resource "pods" in API group "" in the namespace "${namespace}"`,
      ),
    )
  })

  it("the python client's load_incluster_config() reads the same files and variables", async () => {
    const script = [
      'from kubernetes import client, config',
      'config.load_incluster_config()',
      `print(sorted(p.metadata.name for p in client.CoreV1Api().list_namespaced_pod("${namespace}").items))`,
    ].join('; ')
    await apply(pod('python', 'reader', `/usr/bin/python3 -c '${script}'`))
    const { exitCode, log } = await finished('python')
    assert.equal(exitCode, 0, log)
    assert.match(log, /'python'/)
    assert.match(log, /'lister'/)
  })
})
