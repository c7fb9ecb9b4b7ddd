// Worker thread entry: reads the session logs it is sent (synchronously: a worker has no requests to keep
// answering) and posts back what each says. Bundled on its own as dist/scanWorker.js.
import { parentPort } from 'node:worker_threads';
import { createReadSlot, readLog } from './logReader.js';
import type { ScanRequest, ScanResponse } from './scanProtocol.js';

const port = parentPort;
if (port === null) throw new Error('scanWorker.js runs only as a worker thread');

port.on('message', (request: ScanRequest) => {
  const slot = createReadSlot(request.chunkBytes);
  const response: ScanResponse = { id: request.id, results: request.jobs.map((job) => readLog(job.file, job.previous, slot)) };
  port.postMessage(response);
});
