// The committed table of Go json tags (src/registry/decoding/go-json-fields.ts) is what scripts/go-json-fields.mjs
// generates from kube 1.33's Go sources in the local mirrors.
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { generate, MIRRORS, OUTPUT } from '../../scripts/go-json-fields.mjs'

const mirrored = existsSync(join(MIRRORS, 'kubernetes+api', 'repo'))

test('the committed module is the generator output', { skip: !mirrored && 'no kube mirrors here' }, () => {
  assert.equal(readFileSync(OUTPUT, 'utf8'), generate())
})

test('the generator reads the tags as Go declares them', { skip: !mirrored && 'no kube mirrors here' }, () => {
  const text = generate()
  // Spot checks against core/v1 and meta/v1 types.go: omitempty values, pointers, tags without omitempty.
  assert.match(text, /\n {2}ObjectMeta: \{\n(?: {4}.*\n)*? {4}finalizers: 'slice,omitempty',/)
  assert.match(text, /\n {2}PodSpec: \{\n(?: {4}.*\n)*? {4}hostname: 'string,omitempty',/)
  assert.match(text, /\n {2}PodSpec: \{\n(?: {4}.*\n)*? {4}containers: 'slice',/)
  assert.match(text, /\n {2}Role: \{\n(?: {4}.*\n)*? {4}rules: 'slice',/)
  assert.match(text, /\n {2}ConfigMap: \{\n(?: {4}.*\n)*? {4}immutable: 'pointer,omitempty',/)
})
