// The AtomicWriter's layout: ..data → a timestamped directory, one symlink per top-level name, modes exact, an
// update swapping ..data (old directory gone, dropped names unlinked), an unchanged payload leaving everything as it was.
import assert from 'node:assert/strict'
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { validatePath, writePayload } from '../../../agent/volumes/atomic-writer.ts'

const file = (text, mode = 0o644) => ({ data: Buffer.from(text), mode })
const payload = (o) => new Map(Object.entries(o))

describe('writePayload', () => {
  it('writes kubelet layout: ..data symlink, per-key symlinks, modes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-'))
    assert.equal(writePayload(dir, payload({ a: file('1'), 'sub/b': file('2', 0o400) })), true)
    const ts = readlinkSync(join(dir, '..data'))
    assert.match(ts, /^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.\d+$/)
    assert.equal(readlinkSync(join(dir, 'a')), '..data/a')
    assert.equal(readlinkSync(join(dir, 'sub')), '..data/sub')
    assert.equal(readFileSync(join(dir, 'a'), 'utf8'), '1')
    assert.equal(readFileSync(join(dir, 'sub/b'), 'utf8'), '2')
    assert.equal(statSync(join(dir, 'sub/b')).mode & 0o777, 0o400)
    assert.equal(statSync(join(dir, 'a')).mode & 0o777, 0o644)
    assert.equal(statSync(join(dir, ts)).mode & 0o777, 0o755)
    assert.deepEqual(readdirSync(dir).sort(), ['..data', ts, 'a', 'sub'].sort())
  })

  it('swaps ..data on an update, unlinks dropped names and removes the old directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-'))
    writePayload(dir, payload({ a: file('1'), gone: file('x') }))
    const before = readlinkSync(join(dir, '..data'))
    assert.equal(writePayload(dir, payload({ a: file('2'), c: file('3') })), true)
    const after = readlinkSync(join(dir, '..data'))
    assert.notEqual(after, before)
    assert.equal(readFileSync(join(dir, 'a'), 'utf8'), '2')
    assert.equal(readFileSync(join(dir, 'c'), 'utf8'), '3')
    assert.deepEqual(readdirSync(dir).sort(), ['..data', after, 'a', 'c'].sort())
    assert.ok(lstatSync(join(dir, 'a')).isSymbolicLink())
  })

  it('leaves an unchanged payload alone, and rewrites one whose mode changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-'))
    writePayload(dir, payload({ a: file('1') }))
    const ts = readlinkSync(join(dir, '..data'))
    assert.equal(writePayload(dir, payload({ a: file('1') })), false)
    assert.equal(readlinkSync(join(dir, '..data')), ts)
    assert.equal(writePayload(dir, payload({ a: file('1', 0o600) })), true)
    assert.equal(statSync(join(dir, 'a')).mode & 0o777, 0o600)
  })

  it("refuses paths kube's validatePath refuses, writing nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-'))
    assert.throws(() => writePayload(dir, payload({ '../x': file('1') })), /must not contain '\.\.'/)
    assert.throws(() => writePayload(dir, payload({ '/abs': file('1') })), /must be relative path/)
    assert.throws(() => writePayload(dir, payload({ '..x': file('1') })), /must not start with '\.\.'/)
    assert.deepEqual(readdirSync(dir), [])
    assert.equal(validatePath('a/b'), null)
  })
})
