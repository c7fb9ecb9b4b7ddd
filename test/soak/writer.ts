// The "other process" of the soak test: for DURATION ms it does to a Claude Code home what Claude Code
// does, as fast as a small pause allows: atomic-rename saves of plans and memory files (a .tmp.<pid>.<hex>
// file renamed over the real one), new plans and deletions, session logs that grow line by line
// (sometimes in two halves), new sessions. Run with: node --import tsx writer.ts <config json>.
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { conversationLine, encodeCwd, uuid } from '../helpers/home.js';

interface Config {
  claudeDir: string;
  repo: string;
  stable: string[];
  durationMs: number;
  pauseMs: number;
}

const config = JSON.parse(process.argv[2]!) as Config;
const plansDir = path.join(config.claudeDir, 'plans');
const projectDir = path.join(config.claudeDir, 'projects', encodeCwd(config.repo));
const memDir = path.join(projectDir, 'memory');
mkdirSync(memDir, { recursive: true });

const counts = { atomicSaves: 0, created: 0, deleted: 0, logLines: 0, tornLines: 0, sessions: 0, memorySaves: 0, memoryCreated: 0, memoryDeleted: 0 };
let tmpSeq = 0;

function atomicWrite(file: string, text: string): void {
  const tmp = `${file}.tmp.${process.pid}.${(tmpSeq++).toString(16).padStart(12, '0')}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const deadline = Date.now() + config.durationMs;
  let session = uuid(1000);
  let log = path.join(projectDir, `${session}.jsonl`);
  let churn = 0;
  let step = 0;
  while (Date.now() < deadline) {
    step++;
    const stable = config.stable[step % config.stable.length]!;
    atomicWrite(path.join(plansDir, stable), `# Plan: ${stable} v${step}\n\n${'Some words of the plan. '.repeat(20 + (step % 50))}\n`);
    counts.atomicSaves++;

    const created = `churn-${churn++}.md`;
    writeFileSync(path.join(plansDir, created), `# Churn ${churn}\nshort-lived\n`);
    counts.created++;
    if (churn > 20) {
      rmSync(path.join(plansDir, `churn-${churn - 21}.md`), { force: true });
      counts.deleted++;
    }

    const line = `${conversationLine(config.repo, session, stable.replace(/\.md$/, ''), `step ${step} ${'x'.repeat(step % 300)}`)}\n`;
    if (step % 7 === 0) {
      // A line written in two halves, as a reader can catch it.
      appendFileSync(log, line.slice(0, line.length >> 1));
      await sleep(config.pauseMs);
      appendFileSync(log, line.slice(line.length >> 1));
      counts.tornLines++;
    } else {
      appendFileSync(log, line);
    }
    counts.logLines++;
    if (step % 250 === 0) {
      session = uuid(1000 + step);
      log = path.join(projectDir, `${session}.jsonl`);
      counts.sessions++;
    }

    atomicWrite(path.join(memDir, 'live.md'), `---\nname: live\ndescription: saved ${step} times\ntype: project\n---\nStep ${step}.\n`);
    counts.memorySaves++;
    if (step % 10 === 0) {
      writeFileSync(path.join(memDir, `note-${step}.md`), `---\nname: note-${step}\n---\n[[live]]\n`);
      counts.memoryCreated++;
      if (step > 50) {
        rmSync(path.join(memDir, `note-${step - 50}.md`), { force: true });
        counts.memoryDeleted++;
      }
    }
    await sleep(config.pauseMs);
  }
  process.stdout.write(JSON.stringify(counts));
}

void main();
