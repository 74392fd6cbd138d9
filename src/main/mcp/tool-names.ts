/**
 * The names MCP tools are offered under (issue 19): a tool's own name when it is unique among the enabled tools
 * (the built-in ones included), else `server_tool`. Names are made safe for every dialect: OpenAI's function
 * names (`^[a-zA-Z0-9_-]{1,64}$`) are the strictest of the three. Built-in tools keep their names. Pure.
 */

const MAX = 64;

/** A name every dialect accepts: other characters become `_`, at most 64 characters. */
export function wireSafe(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX);
  return safe === '' ? 'tool' : safe;
}

export interface ServerTool {
  server: string;
  tool: string;
}

/** The offered name of each tool, in order; the same inputs always give the same names. */
export function offeredNames(builtin: readonly string[], tools: readonly ServerTool[]): string[] {
  const own = tools.map((t) => wireSafe(t.tool));
  const count = new Map<string, number>();
  for (const n of [...builtin, ...own]) count.set(n, (count.get(n) ?? 0) + 1);
  const taken = new Set(builtin);
  return tools.map((t, i) => {
    const mine = own[i] ?? wireSafe(t.tool);
    let name = count.get(mine) === 1 ? mine : wireSafe(`${t.server}_${t.tool}`);
    // Two servers whose names clean up the same (`my server`, `my.server`), or a prefixed name that is some
    // other tool's own name: a number keeps them apart.
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${wireSafe(`${t.server}_${t.tool}`).slice(0, MAX - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}
