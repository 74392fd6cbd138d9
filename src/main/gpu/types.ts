/**
 * What the GPU probe needs from the machine, injected so tests feed recorded outputs instead of running tools.
 */

/** Output of a finished command; `ok` is false when it could not start (not installed) or exited non-zero. */
export interface CommandResult {
  ok: boolean;
  stdout: string;
}

/** Runs a program without a shell; must resolve (never reject) and respect the timeout. */
export type CommandRunner = (command: string, args: string[], timeoutMs: number) => Promise<CommandResult>;

/** Reads a small text file (sysfs); null when it does not exist or cannot be read. */
export type FileReader = (path: string) => Promise<string | null>;

/** Lists a directory's entries; empty when it does not exist. */
export type DirLister = (path: string) => Promise<string[]>;

export interface ProbeHost {
  platform: NodeJS.Platform | string;
  run: CommandRunner;
  readFile: FileReader;
  listDir: DirLister;
  timeoutMs?: number;
}
