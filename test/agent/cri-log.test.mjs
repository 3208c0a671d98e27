// Container log files in the CRI format: one record per line, partial records for unfinished and over-long lines.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { CriLogWriter, parseRecords } from '../../agent/cri-log.ts'

const file = () => join(mkdtempSync(join(tmpdir(), 'cri-log-')), '0.log')

describe('CriLogWriter', () => {
  it('writes whole lines per stream and keeps an unfinished one until it ends', () => {
    const path = file()
    const w = new CriLogWriter(path)
    const seen = []
    w.onRecord((r) => seen.push(r))
    w.write('stdout', 'one\ntw')
    w.write('stderr', 'oops\n')
    w.write('stdout', 'o\nthree')
    w.close()
    const records = parseRecords(readFileSync(path, 'utf8'))
    assert.deepEqual(
      records.map((r) => [r.stream, r.full, r.text]),
      [
        ['stdout', true, 'one'],
        ['stderr', true, 'oops'],
        ['stdout', true, 'two'],
        ['stdout', true, 'three'],
      ],
    )
    assert.deepEqual(seen, records)
    assert.match(records[0].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/)
  })

  it('splits lines over 16 KiB into partial records', () => {
    const path = file()
    const w = new CriLogWriter(path)
    w.write('stdout', `${'x'.repeat(16 * 1024 + 5)}\n`)
    const records = parseRecords(readFileSync(path, 'utf8'))
    assert.deepEqual(
      records.map((r) => [r.full, r.text.length]),
      [
        [false, 16 * 1024],
        [true, 5],
      ],
    )
  })

  it('skips malformed lines when reading', () => {
    assert.deepEqual(parseRecords('garbage\n2026-01-01T00:00:00.000000000Z stdout F ok\n'), [
      { time: '2026-01-01T00:00:00.000000000Z', stream: 'stdout', full: true, text: 'ok' },
    ])
  })
})
