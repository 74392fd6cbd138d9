/**
 * Reads the `mcpServers` JSON people already have from other apps (Claude Desktop, Cursor, Cline, Windsurf, LM
 * Studio): `{ "mcpServers": { "<name>": { "command", "args", "env", "cwd" } | { "url" | "serverUrl", "headers",
 * "type" } } }`; VS Code's `{ "servers": { ... } }` is read the same way. Pure: what to add, and what was skipped
 * and why. Fields Firebrand does not use are ignored; `disabled`, `timeout` (Cline: seconds) and `alwaysAllow`
 * carry over where they mean the same.
 */
import type { McpServerInput } from '../../shared/mcp';

export interface ParsedImport {
  servers: { input: McpServerInput; alwaysAllow: string[]; disabledTools: string[] }[];
  skipped: { name: string; reason: string }[];
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseMcpImport(text: string): ParsedImport {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw new Error(`The file is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const table = isRec(root) ? (isRec(root['mcpServers']) ? root['mcpServers'] : isRec(root['servers']) ? root['servers'] : undefined) : undefined;
  if (!table) throw new Error('The file has no "mcpServers" object (the format Claude Desktop, Cursor and others use).');
  const out: ParsedImport = { servers: [], skipped: [] };
  for (const [name, value] of Object.entries(table)) {
    const parsed = isRec(value) ? entry(name, value) : 'its entry is not an object';
    if (typeof parsed === 'string') out.skipped.push({ name, reason: parsed });
    else out.servers.push(parsed);
  }
  return out;
}

function entry(name: string, v: Rec): ParsedImport['servers'][number] | string {
  const strings = (key: string): string[] | string => {
    const x = v[key];
    if (x === undefined) return [];
    return Array.isArray(x) && x.every((s) => typeof s === 'string') ? x : `"${key}" is not a list of strings`;
  };
  const record = (key: string): { name: string; value: string }[] | string => {
    const x = v[key];
    if (x === undefined) return [];
    if (!isRec(x)) return `"${key}" is not an object`;
    const out: { name: string; value: string }[] = [];
    for (const [k, val] of Object.entries(x)) {
      if (typeof val !== 'string' && typeof val !== 'number' && typeof val !== 'boolean') return `"${key}.${k}" is not a string`;
      out.push({ name: k, value: String(val) });
    }
    return out;
  };
  const alwaysAllow = strings('alwaysAllow');
  const disabledTools = strings('disabledTools');
  if (typeof alwaysAllow === 'string') return alwaysAllow;
  if (typeof disabledTools === 'string') return disabledTools;
  const common: Pick<McpServerInput, 'enabled' | 'timeoutSeconds'> = {
    enabled: v['disabled'] !== true && v['enabled'] !== false,
    ...(typeof v['timeout'] === 'number' && Number.isInteger(v['timeout']) && v['timeout'] >= 1 && v['timeout'] <= 3600 ? { timeoutSeconds: v['timeout'] } : {}),
  };
  const url = typeof v['url'] === 'string' ? v['url'] : typeof v['serverUrl'] === 'string' ? v['serverUrl'] : undefined;
  if (typeof v['command'] === 'string') {
    const args = strings('args');
    const env = record('env');
    if (typeof args === 'string') return args;
    if (typeof env === 'string') return env;
    const cwd = typeof v['cwd'] === 'string' && v['cwd'] !== '' ? v['cwd'] : null;
    return { input: { name, transport: 'stdio', command: v['command'], args, cwd, env, ...common }, alwaysAllow, disabledTools };
  }
  if (url !== undefined) {
    const headers = record('headers');
    if (typeof headers === 'string') return headers;
    return { input: { name, transport: 'http', url, headers, ...common }, alwaysAllow, disabledTools };
  }
  return 'it has neither a "command" nor a "url"';
}
