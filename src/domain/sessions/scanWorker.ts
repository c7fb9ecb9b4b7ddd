// Worker thread entry: reads the session logs it is sent (synchronously: a worker has no requests to keep
// answering) and posts back what each says. Bundled on its own as dist/scanWorker.js.
import { parentPort } from 'node:worker_threads';
import { discoverLogsSync } from './logFiles.js';
import { createReadSlot, readLog } from './logReader.js';
import type { FolderScan, FoldersRequest, ScanRequest, ScanResponse } from './scanProtocol.js';

const port = parentPort;
if (port === null) throw new Error('scanWorker.js runs only as a worker thread');

function scanFolders(request: FoldersRequest): FolderScan {
  const slot = createReadSlot(request.chunkBytes);
  const warnings: string[] = [];
  const files: [string, ReturnType<typeof readLog>][] = [];
  for (const folder of request.folders) {
    for (const file of discoverLogsSync(request.projectsDir, [folder], (m) => warnings.push(m)).files) {
      files.push([file, readLog(file, request.previous.get(file) ?? null, slot)]);
    }
  }
  return { files, warnings };
}

port.on('message', (request: ScanRequest) => {
  let response: ScanResponse;
  if (request.kind === 'folders') {
    response = { id: request.id, scan: scanFolders(request) };
  } else {
    const slot = createReadSlot(request.chunkBytes);
    response = { id: request.id, results: request.jobs.map((job) => readLog(job.file, job.previous, slot)) };
  }
  port.postMessage(response);
});
