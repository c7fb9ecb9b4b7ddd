import fs from 'node:fs'; import path from 'node:path';
import { JSON_TAPE_WASM } from './src/domain/transcripts/jsonTapeWasm.js';
function walk(d: string, out: string[] = []): string[] { for (const e of fs.readdirSync(d,{withFileTypes:true})) { const p=path.join(d,e.name); if (e.isDirectory()) walk(p,out); else if (p.endsWith('.jsonl')) out.push(p);} return out; }
const bufs = walk(process.argv[2]!).map(f=>fs.readFileSync(f)); const total = bufs.reduce((a,b)=>a+b.length,0);
const lines: Buffer[] = []; for (const b of bufs) { let s=0; let i; while((i=b.indexOf(10,s))!==-1){ lines.push(b.subarray(s,i)); s=i+1; } }
const inst = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(JSON_TAPE_WASM,'base64')), {}) as any;
const mem = inst.exports.memory; mem.grow(200); const u8 = new Uint8Array(mem.buffer);
const max = Math.max(...lines.map(l=>l.length));
for (let r=0;r<4;r++){ let t0=performance.now(); for (const l of lines) u8.set(l, 1024); const copy=performance.now()-t0;
  t0=performance.now(); let n=0; for (const l of lines) { u8.set(l,1024); n+=inst.exports.tokenize(1024, 1024+l.length, 1024+max+64, 1<<20, 7); } const tok=performance.now()-t0;
  console.log('copy', copy.toFixed(1), 'copy+tokenize', tok.toFixed(1), 'ms', (total/1e6/tok*1000).toFixed(0),'MB/s', n); }
