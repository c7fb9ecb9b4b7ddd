// Read buffers that start on a page boundary.
//
// Linux copies page-cache bytes to user memory with `rep movsb`, and on the AMD EPYC this project is
// measured on that copy runs ~4x slower when the destination sits a few bytes past the source's offset
// in its page (distance 1-31 bytes mod 4096): 2.15 GB read in 256 KiB chunks took 1.1-1.3 s into a
// buffer at page offset 8 or 16, and 0.25-0.3 s at offset 0, 32, 64, 672, 2048 or 4080 (C and Node alike,
// 2026-11-21). A file read from offset 0 in whole pages has its source at page offset 0, and glibc puts a
// large malloc (Buffer.alloc of 128 KiB or more) 16 bytes into a fresh mapping: the slow case, hit or
// missed by the luck of the allocator. JavaScript cannot see or choose a buffer's address, but a
// WebAssembly memory always starts on a page boundary, so buffers carved out of one at multiples of 4 KiB
// read at full speed whatever the allocator does.
const WASM_PAGE_BYTES = 64 * 1024;
const ALIGNMENT = 4096;

/**
 * `count` buffers of `bytes` each (rounded up to a multiple of 4 KiB), each starting on a page boundary
 * when WebAssembly is available (not under --jitless, for one); plain buffers otherwise.
 */
export function pageAlignedBuffers(count: number, bytes: number): Buffer[] {
  const stride = Math.ceil(bytes / ALIGNMENT) * ALIGNMENT;
  const memory = wasmMemory(Math.ceil((stride * count) / WASM_PAGE_BYTES));
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    out.push(memory === null ? Buffer.alloc(bytes) : Buffer.from(memory.buffer, i * stride, bytes));
  }
  return out;
}

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number }) => { readonly buffer: ArrayBuffer };
}

function wasmMemory(pages: number): { readonly buffer: ArrayBuffer } | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  try {
    return wasm ? new wasm.Memory({ initial: pages, maximum: pages }) : null;
  } catch {
    // Address space refused (a tight `ulimit -v`, say): plain buffers still work, only slower here.
    return null;
  }
}
