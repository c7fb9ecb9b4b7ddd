// The version of the rules that turn file bytes into the facts the viewer persists between runs (a plan's
// title and counts, a session log's slugs, cwd and sessionId, ...). Every persisted cache records it (see
// cacheFile.ts), and one written under another version is not used: a new build never serves what an
// older one derived, even for files that did not change since.
//
// Bump it whenever a rule's output changes. test/derivation/golden.test.ts derives facts from fixture
// files and fails, saying so, when they differ from the recorded ones while this number stayed the same.
export const DERIVATION_VERSION = 9;
