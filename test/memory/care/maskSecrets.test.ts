// maskSecrets: every secret findSecrets reports is masked, character for character, and nothing else.
import { describe, expect, it } from 'vitest';
import { findSecrets, MASK_CHAR, maskSecrets } from '../../../src/domain/memory/care/secrets.js';

const GH = `ghp_${'a1B'.repeat(12)}`;
const ANT = `sk-ant-${'x'.repeat(30)}`;

describe('maskSecrets', () => {
  it('masks only the secret of each line a finding names, keeping lines and columns', () => {
    const text = `# Notes\nCI token ${GH} and ${ANT} here\r\nDB_PASSWORD=s3cr3t-val\npassword: <your password>\nplain line\n`;
    const { text: masked, count } = maskSecrets(text);
    expect(count).toBe(3);
    expect(masked.length).toBe(text.length);
    expect(masked.split('\n')).toEqual([
      '# Notes',
      `CI token ${MASK_CHAR.repeat(GH.length)} and ${MASK_CHAR.repeat(ANT.length)} here\r`,
      `DB_PASSWORD=${MASK_CHAR.repeat('s3cr3t-val'.length)}`,
      'password: <your password>',
      'plain line',
      '',
    ]);
    // Every line a finding names is changed by the mask, and no other.
    const changed = masked.split('\n').flatMap((l, i) => (l === text.split('\n')[i] ? [] : [i + 1]));
    expect(changed).toEqual(findSecrets(text).map((h) => h.line));
  });

  it('masks a private key block whole, from BEGIN to END', () => {
    const text = 'key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\nAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----\nafter\n';
    const { text: masked, count } = maskSecrets(text);
    expect(count).toBe(1);
    expect(masked).not.toContain('b3BlbnNz');
    expect(masked).not.toContain('AAAABG5v');
    expect(masked.split('\n')[5]).toBe('after');
  });

  it('leaves a text without secrets as it is (the same string)', () => {
    const text = 'The token rotation is yearly; ask the team for a password.\n';
    expect(maskSecrets(text)).toEqual({ text, count: 0 });
  });
});
