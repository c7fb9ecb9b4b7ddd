// The generator's vocabulary: word lists for slugs, titles, project names and prose, and the sentences,
// paragraphs and title case built from them.

import type { Rng } from './rng.js';

export const ADJ = ['jolly', 'snug', 'brave', 'calm', 'eager', 'fuzzy', 'gentle', 'happy', 'keen', 'lively', 'merry', 'nimble',
  'proud', 'quiet', 'rapid', 'shiny', 'swift', 'tidy', 'vivid', 'witty', 'zesty', 'bold', 'cozy', 'dapper', 'fancy',
  'glad', 'humble', 'jaunty', 'lucky', 'mellow', 'noble', 'plucky', 'sunny', 'sleek', 'spry', 'sturdy', 'chipper',
  'breezy', 'crisp', 'daring'];
export const GERUND = ['juggling', 'dancing', 'sailing', 'baking', 'coding', 'dreaming', 'floating', 'gliding', 'hopping',
  'humming', 'jumping', 'knitting', 'leaping', 'marching', 'painting', 'racing', 'roaming', 'singing', 'skating',
  'soaring', 'spinning', 'strolling', 'swimming', 'tinkering', 'wandering', 'whistling', 'wiggling', 'yodeling',
  'zooming', 'bouncing', 'crafting', 'drifting', 'fetching', 'giggling', 'hiking', 'mapping', 'munching', 'plotting',
  'puzzling', 'sketching'];
export const NOUN = ['penguin', 'otter', 'falcon', 'badger', 'beaver', 'bison', 'cobra', 'coyote', 'crane', 'dolphin', 'eagle',
  'ferret', 'gecko', 'heron', 'ibis', 'jaguar', 'koala', 'lemur', 'lynx', 'marmot', 'moose', 'narwhal', 'ocelot',
  'panda', 'parrot', 'puffin', 'quokka', 'rabbit', 'raven', 'salmon', 'seal', 'sparrow', 'squirrel', 'tapir', 'tiger',
  'toucan', 'turtle', 'walrus', 'wombat', 'yak'];
export const VERB = ['add', 'fix', 'refactor', 'migrate', 'speed-up', 'remove', 'document', 'test', 'split', 'rewrite',
  'harden', 'cache', 'index', 'paginate', 'debounce', 'stream', 'validate', 'retry', 'profile', 'upgrade'];
export const THING = ['login', 'dark-mode', 'search', 'billing', 'upload', 'export', 'settings-page', 'api-client',
  'session-store', 'rate-limiter', 'webhooks', 'onboarding', 'audit-log', 'feature-flags', 'csv-import',
  'notifications', 'sidebar', 'router', 'build', 'ci-pipeline', 'docker-image', 'schema', 'cron-jobs', 'metrics',
  'error-pages', 'i18n', 'cli-parser', 'cache-layer', 'query-planner', 'file-watcher'];
export const PROJ_A = ['acme', 'atlas', 'nova', 'orbit', 'pixel', 'quartz', 'river', 'summit', 'tundra', 'vertex', 'willow',
  'zephyr', 'aurora', 'beacon', 'cobalt', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'iris', 'juniper', 'kepler',
  'lumen', 'meridian', 'nimbus', 'onyx', 'prism', 'quill', 'radiant'];
export const PROJ_B = ['api', 'web', 'cli', 'infra', 'ml', 'docs', 'mobile', 'core', 'sdk', 'worker', 'gateway', 'admin',
  'dashboard', 'etl', 'auth'];
export const PKG = ['core', 'ui', 'server', 'shared', 'utils', 'client'];
export const WORDS = ['the', 'a', 'to', 'of', 'and', 'in', 'for', 'with', 'on', 'that', 'this', 'is', 'we', 'it', 'be', 'by',
  'from', 'when', 'then', 'each', 'every', 'so', 'not', 'only', 'once', 'before', 'after', 'into', 'without',
  'request', 'response', 'handler', 'module', 'function', 'component', 'state', 'store', 'query', 'index', 'cache',
  'file', 'path', 'folder', 'watcher', 'event', 'queue', 'worker', 'thread', 'buffer', 'stream', 'chunk', 'line',
  'token', 'session', 'user', 'config', 'setting', 'default', 'option', 'flag', 'schema', 'type', 'field', 'value',
  'error', 'warning', 'retry', 'timeout', 'limit', 'budget', 'latency', 'memory', 'disk', 'network', 'server',
  'client', 'browser', 'route', 'endpoint', 'test', 'tests', 'fixture', 'mock', 'assertion', 'coverage', 'build',
  'bundle', 'release', 'deploy', 'migration', 'database', 'table', 'column', 'row', 'record', 'update', 'insert',
  'delete', 'read', 'write', 'parse', 'render', 'validate', 'serialize', 'compute', 'measure', 'refactor', 'extract',
  'rename', 'move', 'split', 'merge', 'keep', 'drop', 'add', 'remove', 'replace', 'check', 'ensure', 'handle',
  'existing', 'new', 'old', 'current', 'small', 'large', 'fast', 'slow', 'safe', 'simple', 'clear', 'stable',
  'incremental', 'atomic', 'lazy', 'eager', 'shared', 'local', 'remote', 'pending', 'stale', 'fresh', 'invalid',
  'naïve', 'café', 'résumé', 'Zürich', 'über', 'señal', '日本語', 'données', 'größe'];
export const LANGS = ['ts', 'typescript', 'bash', 'json', 'python', 'sql', 'diff', 'yaml', 'go', 'rust'];

export function sentence(rng: Rng, minWords = 6, maxWords = 18): string {
  const n = rng.int(minWords, maxWords);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

export function paragraph(rng: Rng, sentences = rng.int(2, 5)): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng));
  return out.join(' ');
}

export function titleCase(slugPart: string): string {
  return slugPart.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}
