/** The runtime boundaries of DESIGN.md §1 are enforced by lint: these prove the rules bite. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIdsFor(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('runtime boundaries', () => {
  it.each([
    ['src/shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;"],
    ['src/shared/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/shared/x.ts', "import { useState } from 'react';\nexport const u = useState;"],
    ['src/renderer/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;"],
    ['src/renderer/x.ts', "import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;"],
    ['src/renderer/x.ts', "import { createServices } from '../main/services';\nexport const c = createServices;"],
    ['src/main/chat/x.ts', "import { app } from 'electron';\nexport const a = app;"],
  ])('refuses the import in %s: %s', async (file, code) => {
    expect(await ruleIdsFor(code, file)).toContain('no-restricted-imports');
  });

  it.each([
    ['src/main/shell/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/main/chat/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;"],
    ['src/renderer/x.ts', "import type { Turn } from '../shared/turn';\nexport type T = Turn;"],
  ])('allows the import in %s', async (file, code) => {
    expect(await ruleIdsFor(code, file)).not.toContain('no-restricted-imports');
  });
});
