/**
 * Serve mode's and the tests' document reader carrier: the reader as a Node child process with an IPC channel
 * (structured clone, so a file's bytes arrive as bytes). The Electron app uses a utilityProcess instead
 * (src/main/shell/reader-utility.ts).
 */
import { fork } from 'node:child_process';
import { entryFile } from '../workers/start-worker';
import { readerExecArgv, OutOfMemoryWatch, type ReaderChannel, type ReaderExit, type ReaderReply, type ReaderSpawner } from './reader-protocol';

/** The reader's entry, seen from this module: built beside it, the test run's bundle, or the source through tsx. */
export function forkReader(): ReaderSpawner {
  const { file, tsx } = entryFile({ built: 'extract-process.js', source: 'extract-process.ts' }, import.meta.url);
  return ({ maxHeapMb }) => {
    const child = fork(file, [], {
      execArgv: [...(tsx ? ['--import', 'tsx'] : []), ...readerExecArgv(maxHeapMb)],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Its own session, so that it can lower its own autogroup (Linux: ../workers/background-priority.ts). It
      // still ends with its parent: it exits when the IPC channel closes (./extract-process.ts). Not elsewhere:
      // nothing to gain, and a detached child on Windows opens a console window of its own.
      detached: process.platform === 'linux',
    });
    // V8 says on stderr when the heap ran out.
    const oom = new OutOfMemoryWatch();
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => oom.feed(chunk));
    const channel: ReaderChannel = {
      pid: child.pid,
      send: (message) => {
        if (!child.connected) throw new Error('the reader is not running');
        child.send(message);
      },
      onReply: (listener) => child.on('message', (m) => listener(m as ReaderReply)),
      onExit: (listener) => {
        let told = false;
        const tell = (exit: ReaderExit) => {
          if (told) return;
          told = true;
          listener(exit);
        };
        // 'close' comes after its stderr is read to the end, so the out-of-memory words have been seen.
        child.once('close', (code, signal) => tell({ why: signal ? `signal ${signal}` : `exit code ${code ?? '?'}`, outOfMemory: oom.saw }));
        child.once('error', (err) => tell({ why: err.message, outOfMemory: false }));
      },
      hold: (held) => {
        // The process, its IPC channel and its stderr pipe: each would keep the app's event loop alive.
        const stderr = child.stderr as (typeof child.stderr & { ref?: () => void; unref?: () => void }) | null;
        if (held) {
          child.ref();
          child.channel?.ref();
          stderr?.ref?.();
        } else {
          child.unref();
          child.channel?.unref();
          stderr?.unref?.();
        }
      },
      kill: () => {
        child.kill('SIGKILL');
      },
    };
    return channel;
  };
}
