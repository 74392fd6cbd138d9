/**
 * Runs one task of src/main/workers/tasks.ts in its own worker thread, so the event loop stays free while it
 * works (issue 15: HTML that made a regex backtrack froze Stop for minutes; a 60 MiB import frame stalled every
 * socket). One thread per job: a hostile input that makes a job slow is ended by the job's time limit or the
 * user's Stop (the thread is terminated), and cannot hold up the next job.
 */
import type { Worker } from 'node:worker_threads';
import { UserFacingError } from '../errors';
import type { IpcErrorCode } from '../../shared/ipc';
import { startWorker } from './start-worker';
import type { WorkerTaskName, WorkerTasks } from './tasks';

/** Why a job did not finish: the caller's signal, its time limit, or the worker itself failing. */
export class WorkerJobError extends Error {
  constructor(
    readonly kind: 'aborted' | 'timeout' | 'crashed',
    message: string,
  ) {
    super(message);
    this.name = 'WorkerJobError';
  }
}

export interface WorkerJobOptions {
  signal?: AbortSignal;
  /** Backstop for one job (default 60 s); the thread is terminated when it passes. */
  timeoutMs?: number;
  /** Buffers to move into the worker instead of copying them. */
  transfer?: ArrayBuffer[];
}

type Reply = { ok: true; output: unknown } | { ok: false; code?: IpcErrorCode; message: string };

export function runInWorker<K extends WorkerTaskName>(task: K, input: WorkerTasks[K]['input'], options: WorkerJobOptions = {}): Promise<WorkerTasks[K]['output']> {
  const { signal, timeoutMs = 60_000 } = options;
  if (signal?.aborted) return Promise.reject(new WorkerJobError('aborted', 'Stopped.'));
  return new Promise((resolve, reject) => {
    const worker = spawn({ task, input }, options.transfer ?? []);
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = () => finish(() => reject(new WorkerJobError('aborted', 'Stopped.')));
    const timer = setTimeout(() => finish(() => reject(new WorkerJobError('timeout', `The work took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`))), timeoutMs);
    signal?.addEventListener('abort', onAbort);
    worker.once('message', (reply: Reply) =>
      finish(() => {
        if (reply.ok) resolve(reply.output as WorkerTasks[K]['output']);
        else reject(reply.code ? new UserFacingError(reply.code, reply.message) : new Error(reply.message));
      }),
    );
    worker.once('error', (err) => finish(() => reject(new WorkerJobError('crashed', `The worker failed: ${err.message}`))));
    worker.once('exit', (code) => finish(() => reject(new WorkerJobError('crashed', `The worker stopped (exit code ${code}) before it answered.`))));
  });
}

function spawn(workerData: { task: WorkerTaskName; input: unknown }, transferList: ArrayBuffer[]): Worker {
  return startWorker({ built: 'firebrand-worker.js', source: 'worker-entry.ts' }, import.meta.url, { workerData, transferList });
}
