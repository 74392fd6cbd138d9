/**
 * The desktop app's document reader carrier: an Electron utilityProcess (a Node process Electron manages), speaking
 * the same protocol as the fork used in serve mode (src/main/documents/reader-fork.ts). The reader lowers its own
 * priority when it starts (src/main/documents/extract-process.ts).
 */
import { utilityProcess } from 'electron';
import { readerExecArgv, OutOfMemoryWatch, type ReaderChannel, type ReaderReply, type ReaderSpawner } from '../documents/reader-protocol';

export function utilityReader(entry: string): ReaderSpawner {
  return ({ maxHeapMb }) => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Firebrand document reader', stdio: ['ignore', 'ignore', 'pipe'], execArgv: readerExecArgv(maxHeapMb) });
    // V8 says on stderr when the heap ran out.
    const oom = new OutOfMemoryWatch();
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => oom.feed(chunk));
    let alive = true;
    const channel: ReaderChannel = {
      get pid() {
        return child.pid;
      },
      send: (message) => {
        if (!alive) throw new Error('the reader is not running');
        child.postMessage(message);
      },
      onReply: (listener) => child.on('message', (m: unknown) => listener(m as ReaderReply)),
      onExit: (listener) =>
        child.once('exit', (code) => {
          alive = false;
          listener({ why: `exit code ${code}`, outOfMemory: oom.saw });
        }),
      // A utilityProcess never keeps the app running: the app ends with its windows.
      hold: () => undefined,
      kill: () => {
        alive = false;
        child.kill();
      },
    };
    return channel;
  };
}
