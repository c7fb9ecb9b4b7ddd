import fs from 'node:fs'; import path from 'node:path';
import { JsonTape } from './src/domain/transcripts/jsonTape.js';
function walk(d: string, out: string[] = []): string[] { for (const e of fs.readdirSync(d,{withFileTypes:true})) { const p=path.join(d,e.name); if (e.isDirectory()) walk(p,out); else if (p.endsWith('.jsonl')) out.push(p);} return out; }
const bufs = walk(process.argv[2]!).map(f=>fs.readFileSync(f)); const total = bufs.reduce((a,b)=>a+b.length,0);
const lines: Buffer[] = []; for (const b of bufs) { let s=0; let i; while((i=b.indexOf(10,s))!==-1){ lines.push(b.subarray(s,i)); s=i+1; } }
const tape = JsonTape.create()!;
for (let r=0;r<4;r++){ const t0=performance.now(); let n=0; for (const l of lines) { if (tape.parse(l)) n++; } const ms=performance.now()-t0; console.log('parse', ms.toFixed(1),'ms', (total/1e6/ms*1000).toFixed(0),'MB/s', n, lines.length); }
