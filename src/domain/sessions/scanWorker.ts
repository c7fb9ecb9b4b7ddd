// Worker thread entry: reads the session logs it is sent (synchronously: a worker has no requests to keep
// answering) and posts back what each says. Bundled on its own as dist/scanWorker.js.
import { parentPort } from 'node:worker_threads';
import { scanTaken, takeScanned } from './folderQueue.js';
import { createReadSlot, readLog } from '../transcripts/transcriptReader.js';
import type { FolderScan, FoldersRequest, ScanRequest, ScanResponse } from './scanProtocol.js';
import { restoredIsCurrent } from './restoredCheck.js';

const port = parentPort;
if (port === null) throw new Error('scanWorker.js runs only as a worker thread');

/** Scans what this worker takes from the queue, posting parts on the way; returns the rest. */
function scanFolders(request: FoldersRequest, post: (part: FolderScan) => void): FolderScan {
  const slot = createReadSlot(request.chunkBytes);
  const scan: FolderScan = { files: [], warnings: [], dirs: [] };
  for (const _ of scanTaken(request.projectsDir, request.queue, request.previous, slot, scan)) {
    if (scan.files.length >= request.partFiles) post(takeScanned(scan));
  }
  return scan;
}

port.on('message', (request: ScanRequest) => {
  let response: ScanResponse;
  if (request.kind === 'confirm') {
    response = { id: request.id, current: restoredIsCurrent(request.stamps) };
  } else if (request.kind === 'folders') {
    const { id } = request;
    response = { id, scan: scanFolders(request, (part) => port.postMessage({ id, part } satisfies ScanResponse)) };
  } else {
    const slot = createReadSlot(request.chunkBytes);
    response = { id: request.id, results: request.jobs.map((job) => readLog(job.file, job.previous, slot)) };
  }
  port.postMessage(response);
});
