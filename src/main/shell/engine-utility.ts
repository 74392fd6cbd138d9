/**
 * The desktop app's built-in engine carrier: an Electron utilityProcess (a Node process Electron manages, with
 * its own crash reporting), speaking the same protocol as the fork used in serve mode.
 */
import { utilityProcess } from 'electron';
import type { EngineChannel, EngineSpawner } from '../builtin/engine-host';
import type { EngineMessage } from '../builtin/protocol';

export function utilitySpawner(entry: string, log: (line: string) => void): EngineSpawner {
  return () => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Firebrand llama.cpp engine', stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') log(line);
    });
    let alive = true;
    const channel: EngineChannel = {
      get pid() {
        return child.pid;
      },
      send: (message) => {
        if (!alive) throw new Error('The built-in engine process is not running.');
        child.postMessage(message);
      },
      onMessage: (listener) => child.on('message', (m: unknown) => listener(m as EngineMessage)),
      onExit: (listener) =>
        child.once('exit', (code) => {
          alive = false;
          listener(`exit code ${code}`);
        }),
      kill: () => {
        alive = false;
        child.kill();
      },
    };
    return channel;
  };
}
