import { fork } from 'node:child_process';
import type { EngineMessage, EngineRequest } from './protocol';
import type { EngineChannel, EngineSpawner } from './engine-host';

export interface ForkOptions {
  /** The engine entry: the built `builtin-engine.js`, or the TypeScript source with a loader in `execArgv`. */
  entry: string;
  execArgv?: string[];
  /** Where the engine's own log lines go (llama.cpp errors). */
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** Serve mode and tests: the engine as a Node child process with an IPC channel (structured clone). */
export function forkSpawner(options: ForkOptions): EngineSpawner {
  return () => {
    const child = fork(options.entry, [], {
      execArgv: options.execArgv ?? [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, ...options.env },
    });
    let tail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') options.log(line);
    });
    const channel: EngineChannel = {
      pid: child.pid,
      send: (message: EngineRequest) => {
        if (!child.connected) throw new Error('The built-in engine process is not running.');
        child.send(message);
      },
      onMessage: (listener) => child.on('message', (m) => listener(m as EngineMessage)),
      onExit: (listener) => {
        let told = false;
        const tell = (why: string) => {
          if (told) return;
          told = true;
          listener(why);
        };
        child.once('exit', (code, signal) => tell(signal ? `signal ${signal}` : `exit code ${code ?? '?'}`));
        child.once('error', (err) => tell(err.message));
      },
      kill: () => {
        child.kill();
      },
    };
    return channel;
  };
}
