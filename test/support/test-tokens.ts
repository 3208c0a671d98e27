// The static tokens of the workerd tests (vitest.config.ts gives them to the Worker as KUBEFLARE_TOKENS): an admin in
// system:masters, whom test/helpers.ts sends by default, and plain users for authorization tests.
export const TEST_TOKENS = {
  admin: 'test-admin-token',
  alice: 'test-alice-token',
  bob: 'test-bob-token',
  carol: 'test-carol-token',
} as const

export const TEST_TOKENS_CSV = [
  `${TEST_TOKENS.admin},test-admin,uid-admin,system:masters`,
  `${TEST_TOKENS.alice},alice,uid-alice,"team-a-devs,everyone"`,
  `${TEST_TOKENS.bob},bob,uid-bob`,
  `${TEST_TOKENS.carol},carol,uid-carol,everyone`,
].join('\n')

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
