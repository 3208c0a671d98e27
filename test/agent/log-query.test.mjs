// Rendering log records as the kubelet's reader does: tail by records, since, timestamps at line starts, partial lines.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { renderRecords, tailRecords } from '../../agent/log-query.ts'

const rec = (time, text, full = true) => ({ time, stream: 'stdout', full, text })
const records = [
  rec('2026-01-01T00:00:01.000000000Z', 'one'),
  rec('2026-01-01T00:00:02.000000000Z', 'tw', false),
  rec('2026-01-01T00:00:02.500000000Z', 'o'),
  rec('2026-01-01T00:00:03.000000000Z', 'three'),
]

describe('log rendering', () => {
  it('joins partial records into their line', () => {
    assert.equal(renderRecords(records, {}), 'one\ntwo\nthree\n')
  })
  it('prefixes timestamps at line starts only', () => {
    assert.equal(
      renderRecords(records, { timestamps: true }),
      '2026-01-01T00:00:01.000000000Z one\n2026-01-01T00:00:02.000000000Z two\n2026-01-01T00:00:03.000000000Z three\n',
    )
  })
  it('skips records before since', () => {
    assert.equal(renderRecords(records, { since: Date.parse('2026-01-01T00:00:02.600Z') }), 'three\n')
  })
  it('tails by records', () => {
    assert.deepEqual(tailRecords(records, 1), [records[3]])
    assert.deepEqual(tailRecords(records, 0), [])
    assert.equal(tailRecords(records, undefined), records)
  })
  it('keeps line state across calls (follow)', () => {
    const state = { lineStart: true }
    assert.equal(renderRecords([records[1]], { timestamps: true }, state), '2026-01-01T00:00:02.000000000Z tw')
    assert.equal(renderRecords([records[2]], { timestamps: true }, state), 'o\n')
  })
})
