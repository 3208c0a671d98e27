// kubectl 1.27 and 1.33 as an admin and as a namespace-scoped user: a Role + RoleBinding made with `kubectl create`
// (1.33 sends them as protobuf) lets alice work with pods in team-a and nowhere else, with kube's 403 text elsewhere;
// `auth can-i` (answer and exit code) and `auth can-i --list` agree with it; `auth whoami` shows who the server
// thinks you are (1.27 only knows the v1beta1/v1alpha1 API, which kube 1.33 no longer serves); and impersonation
// (`--as`, `--as-group`) works for whoever may impersonate, with kube's refusal for whoever may not.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { KUBECTL_VERSIONS, TEST_TOKENS, kubectl, podManifest, uniqueNs } from './helpers.mjs'
import { kubeconfigFor, kubectlForbidden, kubectlWith } from './identity-helpers.mjs'

const teamA = uniqueNs('team-a')
const teamB = uniqueNs('team-b')
const admin = kubeconfigFor('admin', TEST_TOKENS.admin)
const alice = kubeconfigFor('alice', TEST_TOKENS.alice)
const bob = kubeconfigFor('bob', TEST_TOKENS.bob)

/** The rows of `auth can-i --list` about pods. */
const podRows = (out) => out.split('\n').filter((l) => /^pods\s/.test(l))

before(async () => {
  for (const ns of [teamA, teamB]) await kubectl('1.33', ['create', 'namespace', ns])
  await kubectl('1.33', ['apply', '-n', teamB, '-f', '-'], { input: JSON.stringify(podManifest('b-pod')) })
  // 1.33 sends the Role as protobuf, 1.27 the RoleBinding as JSON: both must land.
  await kubectl('1.33', [
    'create',
    'role',
    'pod-user',
    '-n',
    teamA,
    '--verb=get,list,watch,create,delete',
    '--resource=pods',
  ])
  await kubectl('1.27', ['create', 'rolebinding', 'alice-pods', '-n', teamA, '--role=pod-user', '--user=alice'])
})

after(async () => {
  for (const ns of [teamA, teamB])
    await kubectl('1.33', ['delete', 'namespace', ns, '--wait=false'], { allowFail: true })
})

const lists = {}

for (const v of KUBECTL_VERSIONS) {
  describe(`kubectl ${v}`, () => {
    it('the admin kubeconfig works everywhere', async () => {
      const r = await kubectlWith(v, admin, ['get', 'pods', '-n', teamB, '-o', 'name'])
      assert.equal(r.stdout, 'pod/b-pod\n')
      const ns = await kubectlWith(v, admin, ['get', 'namespace', teamA, '-o', 'name'])
      assert.equal(ns.stdout, `namespace/${teamA}\n`)
    })

    it('alice works with pods in team-a', async () => {
      const name = `a-${v.replace('.', '-')}`
      await kubectlWith(v, alice, ['run', name, '-n', teamA, '--image=nginx'])
      const r = await kubectlWith(v, alice, ['get', 'pods', '-n', teamA, '-o', 'name'])
      assert.ok(r.stdout.split('\n').includes(`pod/${name}`), r.stdout)
      await kubectlWith(v, alice, ['delete', 'pod', name, '-n', teamA, '--wait=false'])
    })

    it("alice gets kube's 403 in team-b, and for what her Role does not grant in team-a", async () => {
      const r = await kubectlWith(v, alice, ['get', 'pods', '-n', teamB], { allowFail: true })
      assert.equal(r.code, 1)
      assert.equal(r.stdout, '')
      assert.equal(r.stderr, kubectlForbidden('alice', 'list', 'pods', teamB))
      const cm = await kubectlWith(v, alice, ['get', 'configmaps', '-n', teamA], { allowFail: true })
      assert.equal(cm.code, 1)
      assert.equal(cm.stderr, kubectlForbidden('alice', 'list', 'configmaps', teamA))
      const del = await kubectlWith(v, alice, ['delete', 'pod', 'b-pod', '-n', teamB], { allowFail: true })
      assert.equal(del.code, 1)
      assert.equal(
        del.stderr,
        'Error from server (Forbidden): pods "b-pod" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "' +
          `${teamB}"\n`,
      )
    })

    it('auth can-i answers yes (exit 0) and no (exit 1) as the requests went', async () => {
      const cases = [
        [['list', 'pods', '-n', teamA], 'yes'],
        [['create', 'pods', '-n', teamA], 'yes'],
        [['delete', 'pods/some-pod', '-n', teamA], 'yes'],
        [['update', 'pods', '-n', teamA], 'no'],
        [['list', 'pods', '-n', teamB], 'no'],
        [['list', 'configmaps', '-n', teamA], 'no'],
        [['list', 'pods', '--all-namespaces'], 'no'],
        [['get', '/version'], 'yes'],
      ]
      for (const [args, answer] of cases) {
        const r = await kubectlWith(v, alice, ['auth', 'can-i', ...args], { allowFail: true })
        assert.equal(r.stdout, `${answer}\n`, `can-i ${args.join(' ')}: ${r.stderr}`)
        assert.equal(r.code, answer === 'yes' ? 0 : 1, `can-i ${args.join(' ')}`)
      }
    })

    it('auth can-i --list shows the Role in team-a and nothing for pods in team-b', async () => {
      const a = await kubectlWith(v, alice, ['auth', 'can-i', '--list', '-n', teamA])
      assert.match(a.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n/)
      assert.deepEqual(
        podRows(a.stdout).map((l) => l.split(/\s{2,}/)),
        [['pods', '[]', '[]', '[get list watch create delete]']],
      )
      assert.match(a.stdout, /\nselfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]\n/)
      assert.match(a.stdout, /\n\s+\[\/version\]\s+\[\]\s+\[get\]\n/)
      const b = await kubectlWith(v, alice, ['auth', 'can-i', '--list', '-n', teamB])
      assert.deepEqual(podRows(b.stdout), [])
      lists[v] = a.stdout
    })

    it('auth whoami', async () => {
      const r = await kubectlWith(v, alice, ['auth', 'whoami'], { allowFail: true })
      if (v === '1.27') {
        // 1.27 asks authentication.k8s.io/v1beta1, then v1alpha1: kube 1.33 serves neither (v1beta1 went in 1.33).
        assert.equal(r.code, 1)
        assert.match(r.stderr, /^error: the selfsubjectreviews API is not enabled in the cluster\n/)
        return
      }
      assert.equal(r.code, 0, r.stderr)
      assert.equal(
        r.stdout,
        'ATTRIBUTE   VALUE\nUsername    alice\nUID         uid-alice\nGroups      [team-a-devs system:authenticated]\n',
      )
      const a = await kubectlWith(v, admin, ['auth', 'whoami', '-o', 'json'])
      assert.deepEqual(JSON.parse(a.stdout).status.userInfo, {
        username: 'e2e-admin',
        uid: 'uid-e2e-admin',
        groups: ['system:masters', 'system:authenticated'],
      })
    })

    it('the admin impersonates alice: her rights, and only the groups asked for', async () => {
      const b = await kubectlWith(v, admin, ['--as=alice', 'get', 'pods', '-n', teamB], { allowFail: true })
      assert.equal(b.code, 1)
      assert.equal(b.stderr, kubectlForbidden('alice', 'list', 'pods', teamB))
      const a = await kubectlWith(v, admin, ['--as=alice', 'get', 'pods', '-n', teamA])
      assert.equal(a.code, 0, a.stderr)
      const can = await kubectlWith(v, admin, ['--as=alice', 'auth', 'can-i', 'list', 'pods', '-n', teamA])
      assert.equal(can.stdout, 'yes\n')
      if (v === '1.27') return
      // An impersonated user has the groups the request names (plus system:authenticated), not the token file's.
      const who = await kubectlWith(v, admin, ['--as=alice', 'auth', 'whoami', '-o', 'json'])
      assert.deepEqual(JSON.parse(who.stdout).status.userInfo, { username: 'alice', groups: ['system:authenticated'] })
      const g = ['--as=alice', '--as-group=team-a-devs', '--as-uid=u-1', 'auth', 'whoami', '-o', 'json']
      const withGroup = await kubectlWith(v, admin, g)
      assert.deepEqual(JSON.parse(withGroup.stdout).status.userInfo, {
        username: 'alice',
        uid: 'u-1',
        groups: ['team-a-devs', 'system:authenticated'],
      })
    })

    it("a user without the impersonate verb gets kube's 403", async () => {
      const r = await kubectlWith(v, bob, ['--as=x', 'get', '--raw', '/api/v1/pods'], { allowFail: true })
      assert.equal(r.code, 1)
      assert.equal(
        r.stderr,
        'Error from server (Forbidden): users "x" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope\n',
      )
      // Asking for a group needs the verb on users first, even to be oneself.
      const g = ['--as=alice', '--as-group=system:masters', 'get', '--raw', '/api/v1/pods']
      const self = await kubectlWith(v, alice, g, { allowFail: true })
      assert.equal(self.code, 1)
      assert.equal(
        self.stderr,
        'Error from server (Forbidden): users "alice" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope\n',
      )
      // `get pods` starts with discovery, which the same 403 stops; client-go reports that 403 as "unknown", as it
      // does against kube-apiserver.
      const get = await kubectlWith(v, bob, ['--as=x', 'get', 'pods'], { allowFail: true })
      assert.equal(get.code, 1)
      assert.match(get.stderr, /couldn't get current server API group list: unknown/)
      assert.match(get.stderr, /\nError from server \(Forbidden\): unknown\n$/)
    })
  })
}

describe('both versions', () => {
  it('print the same can-i --list', () => {
    assert.ok(lists['1.27'] && lists['1.33'])
    assert.equal(lists['1.27'], lists['1.33'])
  })
})
