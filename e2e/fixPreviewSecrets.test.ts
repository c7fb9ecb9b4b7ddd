// A memory fix's preview in a real browser: the diff of a duplicate topic moved to the trash shows the file's
// lines, and a credential among them is masked there as in every other view of memory, for one finding and for
// all of a kind (the bulk restore's preview shares the component: bulkChanges.test.ts).
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addMemoryProject } from './helpers/fixture.js';
import { useTestEnv } from './helpers/setup.js';

const SECRET = 'hunter2-correct-horse';
const TOPIC = `---\nname: deploy notes\ndescription: how the vault deploys to staging\nmetadata:\n  type: project\n---\n\nStaging login:\npassword: ${SECRET}\n`;
let vaultId = '';

const env = useTestEnv({
  async extend(fx) {
    const { id, memoryDir: dir } = await addMemoryProject(fx, 'vault', '1b0c4f7e-2d3a-4c5b-9e8f-00000000f1c5', {
      'MEMORY.md': '# Vault\n\n- [Deploy](deploy.md) — how the vault deploys\n- [Deploy again](deploy-copy.md) — the same\n',
      // The same name twice: the later copy is a duplicate, fixed by moving it to the trash.
      'deploy.md': TOPIC,
      'deploy-copy.md': TOPIC,
    });
    vaultId = id;
    // Not changed for 200 days, no session recorded: stale, a kind whose findings are fixed all at once.
    const old = path.join(dir, 'old-deploy.md');
    await writeFile(old, TOPIC.replace('name: deploy notes', 'name: cluster checklist')
      .replace('how the vault deploys to staging', 'legacy release checklist for the retired cluster').replace('Staging login', 'Old cluster login'));
    const then = new Date(Date.now() - 200 * 86_400_000);
    await utimes(old, then, then);
  },
});

describe('a fix preview', () => {
  it('masks a credential in the lines its diff shows', async () => {
    const { page } = await env.open(`?view=memory&tab=health&source=${encodeURIComponent(vaultId)}`);
    const item = page.locator('.problem-item[data-kind="duplicate"]', { hasText: 'deploy-copy.md' });
    await item.getByRole('button', { name: 'Move to the trash…' }).click();
    const removed = item.locator('.diff-view .diff-del');
    await expect.poll(() => removed.allTextContents()).toContain('-Staging login:\n');
    const diff = (await item.locator('.diff-view').textContent()) ?? '';
    expect(diff).toContain('password: ••••');
    expect(diff).not.toContain(SECRET);
  });

  it('masks it in the preview of fixing every finding of a kind too', async () => {
    const { page } = await env.open('?view=memory&tab=health');
    await page.waitForSelector('.health-row');
    await page.getByRole('group', { name: 'Show one kind of problem' }).locator('button[data-kind="stale"]').click();
    const row = page.locator('.health-row', { has: page.locator('.health-source', { hasText: 'vault' }) });
    await row.getByRole('button', { name: /^Fix all \d+…$/ }).click();
    const preview = row.getByRole('region', { name: /^Preview: fix all stale findings/ });
    await expect.poll(() => preview.locator('.diff-del').allTextContents()).toContain('-Old cluster login:\n');
    const diff = (await preview.locator('.diff-view').textContent()) ?? '';
    expect(diff).toContain('password: ••••');
    expect(diff).not.toContain(SECRET);
  });
});
