// scripts/server-cert-names.mjs and the server certificate local-credentials.mjs makes from it: the names `--ip`
// asks for (an address, every interface's address for a wildcard, the hostname); a TLS client that trusts only the
// local CA verifies the server for those addresses (node:tls, against a server on 127.0.0.1 presenting the
// certificate); other names make a new server certificate under the same CA, the same names keep it; a state directory
// whose CA key was not kept gets a new CA.
import assert from 'node:assert/strict'
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isIP } from 'node:net'
import { join } from 'node:path'
import { connect, createServer, checkServerIdentity } from 'node:tls'
import { after, describe, it } from 'node:test'
import { ensureLocalCredentials } from '../../scripts/local-credentials.mjs'
import {
  LOOPBACK_NAMES,
  certificateNames,
  hostHeaderNames,
  kubernetesServiceIP,
  sameNames,
  wantedServerNames,
} from '../../scripts/server-cert-names.mjs'

const dirs = []
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})
const stateDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'kubeflare-cert-names-'))
  dirs.push(d)
  return d
}

/** A machine with a LAN address on eth0 (IPv4, a ULA and a link-local IPv6) and the loopback. */
const interfaces = {
  lo: [
    { address: '127.0.0.1', family: 'IPv4', internal: true },
    { address: '::1', family: 'IPv6', internal: true },
  ],
  eth0: [
    { address: '192.0.2.7', family: 'IPv4', internal: false },
    { address: 'FD00:0:0:0:0:0:0:7', family: 'IPv6', internal: false },
    { address: 'fe80::7', family: 'IPv6', internal: false, scopeid: 2 },
  ],
}

const credentials = (state, ip, machine = { hostname: 'buildbox', interfaces }) =>
  ensureLocalCredentials(state, {
    server: 'https://127.0.0.1:8787',
    https: true,
    allowedHosts: ['127.0.0.1'],
    serverNames: wantedServerNames(ip, machine),
  })

/**
 * Whether a TLS client trusting only the CA accepts the server (listening on 127.0.0.1 with the certificate) as
 * `name`: answers null, or the error (ERR_TLS_CERT_ALTNAME_INVALID for a name the certificate lacks).
 */
async function verifyAs(tls, name) {
  const server = createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (s) => s.end())
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await new Promise((resolve) => {
      const socket = connect({
        host: '127.0.0.1',
        port: server.address().port,
        ca: readFileSync(tls.caCert),
        // The chain is verified against the CA as for any connection; the name is the one a client on another
        // machine would dial. tls.checkServerIdentity compares an IPv6 address with the certificate's as text
        // (`::1` against `0:0:0:0:0:0:0:1`); X509Certificate.checkIP compares addresses, as Go's crypto/tls does.
        checkServerIdentity: (_host, cert) =>
          isIP(name) !== 6
            ? checkServerIdentity(name, cert)
            : new X509Certificate(cert.raw).checkIP(name)
              ? undefined
              : Object.assign(new Error(`${name} is not in the certificate`), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }),
      })
      socket.on('secureConnect', () => {
        socket.destroy()
        resolve(null)
      })
      socket.on('error', (e) => resolve(e))
    })
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

describe('wantedServerNames', () => {
  it('names the loopback, the --ip address and the hostname', () => {
    assert.deepEqual(wantedServerNames('192.0.2.9', { hostname: 'BuildBox', interfaces }), {
      ips: ['127.0.0.1', '::1', '192.0.2.9'],
      dns: ['localhost', 'buildbox'],
    })
    assert.deepEqual(wantedServerNames('127.0.0.1', { hostname: 'buildbox', interfaces }), {
      ips: ['127.0.0.1', '::1'],
      dns: ['localhost', 'buildbox'],
    })
    // IPv6 in one spelling; a hostname that is no DNS name is left out; a name given as --ip is a DNS name.
    assert.deepEqual(wantedServerNames('FD00::0:9', { hostname: 'my_box', interfaces }), {
      ips: ['127.0.0.1', '::1', 'fd00::9'],
      dns: ['localhost'],
    })
    assert.deepEqual(wantedServerNames('kube.lan', { hostname: '', interfaces }).dns, ['localhost', 'kube.lan'])
  })

  it("names the kubernetes Service's ClusterIP, SERVICE_CIDR's first address (kube's default range's otherwise)", () => {
    assert.deepEqual(wantedServerNames('127.0.0.1', { hostname: 'b', interfaces, serviceIP: '10.96.0.1' }), {
      ips: ['127.0.0.1', '::1', '10.96.0.1'],
      dns: ['localhost', 'b'],
    })
    assert.equal(kubernetesServiceIP('10.96.0.0/12'), '10.96.0.1')
    assert.equal(kubernetesServiceIP('172.20.5.9/16'), '172.20.0.1')
    assert.equal(kubernetesServiceIP(' 192.168.0.0/30 '), '192.168.0.1')
    for (const bad of [undefined, '', '10.0.0.0/31', '10.0.0.0/7', 'fd00::/108', '300.1.1.0/24'])
      assert.equal(kubernetesServiceIP(bad), '10.96.0.1', String(bad))
  })

  it('names every interface address for 0.0.0.0, :: and *', () => {
    for (const ip of ['0.0.0.0', '::', '*']) {
      assert.deepEqual(wantedServerNames(ip, { hostname: 'buildbox', interfaces }), {
        ips: ['127.0.0.1', '::1', '192.0.2.7', 'fd00::7', 'fe80::7'],
        dns: ['localhost', 'buildbox'],
      })
    }
    // By default, this machine's: at least the loopback.
    const here = wantedServerNames('0.0.0.0')
    assert.ok(here.ips.includes('127.0.0.1') && here.dns.includes('localhost'))
  })

  it('compares names in any order and spelling; Host header spellings bracket IPv6', () => {
    const names = { ips: ['::1', '127.0.0.1'], dns: ['localhost'] }
    assert.ok(sameNames(names, LOOPBACK_NAMES))
    assert.ok(!sameNames({ ...names, dns: [] }, LOOPBACK_NAMES))
    assert.deepEqual(hostHeaderNames(wantedServerNames('fd00::9', { hostname: 'b', interfaces })), [
      '127.0.0.1',
      '[::1]',
      '[fd00::9]',
      'localhost',
      'b',
    ])
  })
})

describe('the server certificate', () => {
  it('for --ip <address>: a client trusting the CA verifies the server at that address, not at another', async () => {
    const c = credentials(stateDir(), '192.0.2.9')
    assert.equal(c.tlsMade, 'ca')
    for (const name of ['192.0.2.9', '127.0.0.1', '::1', 'localhost', 'buildbox']) {
      assert.equal(await verifyAs(c.tls, name), null, name)
    }
    assert.equal((await verifyAs(c.tls, '192.0.2.10'))?.code, 'ERR_TLS_CERT_ALTNAME_INVALID')
  })

  it('for --ip 0.0.0.0: every interface address verifies', async () => {
    const c = credentials(stateDir(), '0.0.0.0')
    for (const name of ['192.0.2.7', 'fd00::7', 'fe80::7', '127.0.0.1', '::1']) {
      assert.equal(await verifyAs(c.tls, name), null, name)
    }
    assert.equal((await verifyAs(c.tls, 'fd00::8'))?.code, 'ERR_TLS_CERT_ALTNAME_INVALID')
  })

  it('is made again under the same CA when the names change, and kept while they do not', async () => {
    const state = stateDir()
    const first = credentials(state, '127.0.0.1')
    const ca = readFileSync(first.tls.caCert, 'utf8')
    const firstCert = readFileSync(first.tls.cert, 'utf8')
    assert.equal((await verifyAs(first.tls, '192.0.2.9'))?.code, 'ERR_TLS_CERT_ALTNAME_INVALID')
    const again = credentials(state, '127.0.0.1')
    assert.equal(again.tlsMade, null)
    assert.equal(readFileSync(again.tls.cert, 'utf8'), firstCert)
    const moved = credentials(state, '192.0.2.9')
    assert.equal(moved.tlsMade, 'server')
    assert.equal(readFileSync(moved.tls.caCert, 'utf8'), ca)
    assert.notEqual(readFileSync(moved.tls.cert, 'utf8'), firstCert)
    assert.equal(await verifyAs(moved.tls, '192.0.2.9'), null)
    assert.deepEqual(certificateNames(readFileSync(moved.tls.cert, 'utf8')), {
      ips: ['127.0.0.1', '::1', '192.0.2.9'],
      dns: ['localhost', 'buildbox'],
    })
    // The kubeconfig still carries the CA the new certificate is verified against.
    const kubeconfig = readFileSync(moved.kubeconfigFile, 'utf8')
    assert.ok(kubeconfig.includes(Buffer.from(ca).toString('base64')))
    // A new hostname is another name too.
    const renamed = credentials(state, '192.0.2.9', { hostname: 'other', interfaces })
    assert.equal(renamed.tlsMade, 'server')
    assert.equal(await verifyAs(renamed.tls, 'other'), null)
  })

  it('comes with a new CA when the state directory kept no CA key (made before it was kept)', () => {
    const state = stateDir()
    const first = credentials(state, '127.0.0.1')
    const ca = readFileSync(first.tls.caCert, 'utf8')
    unlinkSync(first.tls.caKey)
    // Same names: nothing is made, the CA key is not needed.
    assert.equal(credentials(state, '127.0.0.1').tlsMade, null)
    const moved = credentials(state, '192.0.2.9')
    assert.equal(moved.tlsMade, 'ca')
    const newCa = readFileSync(moved.tls.caCert, 'utf8')
    assert.notEqual(newCa, ca)
    assert.ok(new X509Certificate(readFileSync(moved.tls.cert)).verify(new X509Certificate(newCa).publicKey))
  })
})
