// Worker thread entry: reads the session logs it is sent (synchronously: a worker has no requests to keep
// answering) and posts back what each says. Bundled on its own as dist/scanWorker.js.
import { parentPort } from 'node:worker_threads';
import { scanTaken } from './folderQueue.js';
import { createReadSlot, readLog } from './logReader.js';
import type { FolderScan, FoldersRequest, ScanRequest, ScanResponse } from './scanProtocol.js';

const port = parentPort;
if (port === null) throw new Error('scanWorker.js runs only as a worker thread');

function scanFolders(request: FoldersRequest): FolderScan {
  const scan: FolderScan = { files: [], warnings: [] };
  const slot = createReadSlot(request.chunkBytes);
  for (const _ of scanTaken(request.projectsDir, request.queue, request.previous, slot, scan)) continue;
  return scan;
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
