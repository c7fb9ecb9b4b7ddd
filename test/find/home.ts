// A home for the ranked-search tests: plans, memory of two projects, a session with a title and prompts.
import path from 'node:path';
import { conversationLine, encodeCwd, uuid, type TempHome } from '../helpers/home.js';
import { meta } from '../history/transcript.js';

/** The webapp session's id. */
export const SESSION = uuid(1);

export const day = (iso: string): Date => new Date(`${iso}T12:00:00Z`);

const filler = (n: number, seed = 0): string =>
  Array.from({ length: n }, (_, i) => ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'][(i * 7 + seed) % 8]).join(' ');

export async function buildFindHome(home: TempHome): Promise<{ webapp: string; tools: string; log: string }> {
  const webapp = await home.repo('webapp');
  const tools = await home.repo('tools');
  // A term in a title beats the same term once in a long body, even in a newer plan.
  await home.plan('title-plan.md', '# Zebra migration\n\nMove the data.\n', day('2026-01-10'));
  await home.plan('body-plan.md', `# Weekly notes\n\n${filler(300)} zebra ${filler(300, 3)}\n`, day('2026-03-10'));
  // A phrase beats the same words scattered (the scattered plan is newer and says them more often).
  await home.plan('phrase-plan.md', '# Ocean\n\nWe saw a blue whale today.\n', day('2026-02-01'));
  await home.plan('scattered-plan.md', `# Ocean too\n\nThe whale was grey, the sky blue.\nAnother whale, blue paint.\n`, day('2026-04-01'));
  // A phrase past the start the search reads first (16 KB) of a plan.
  const lines = Array.from({ length: 400 }, (_, i) => filler(8, i)).join('\n');
  await home.plan('deep-phrase-plan.md', `# Field notes\n\n${lines}\n\nAt dusk an amber lynx crossed the road.\n`, day('2026-01-20'));
  await home.plan('cafe-plan.md', '# Menu\n\nThe Café opens at nine.\nA long line ' + 'x'.repeat(400) + ' then the CAFÉ again.\n', day('2026-02-05'));
  const memory = (cwd: string, file: string, text: string, date: string) =>
    home.write(`projects/${encodeCwd(cwd)}/memory/${file}`, text, day(date));
  await memory(webapp, 'MEMORY.md', '- [Deploy](deploy.md)\n- [Style](style.md)\n', '2026-01-01');
  await memory(webapp, 'deploy.md', '---\nname: Deploy steps\ndescription: How the webapp reaches production\ntype: project\n---\n\nRun the pipeline, then watch the zebra dashboard.\n', '2026-01-05');
  await memory(webapp, 'style.md', '---\nname: Code style\ndescription: Tabs or spaces\ntype: feedback\n---\n\nPrefer small functions.\n', '2026-05-05');
  await memory(tools, 'MEMORY.md', '- [Release](release.md)\n', '2026-01-01');
  await memory(tools, 'release.md', '---\nname: Release checklist\ntype: project\n---\n\nTag, then publish the pipeline output.\n', '2026-06-01');
  await home.session(tools, uuid(2), [null]);
  const sessionId = SESSION;
  const log = await home.write(path.join('projects', encodeCwd(webapp), `${sessionId}.jsonl`), [
    conversationLine(webapp, sessionId, null, 'Please refactor the billing module carefully'),
    JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, sessionId, cwd: webapp, timestamp: '2026-11-19T09:01:00.000Z' }),
    meta.aiTitle(sessionId, 'Billing refactor'),
    conversationLine(webapp, sessionId, null, 'Now add invoices to the billing export'),
    meta.lastPrompt(sessionId, 'Now add invoices to the billing export'),
  ].join('\n') + '\n');
  return { webapp, tools, log };
}
