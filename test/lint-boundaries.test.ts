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
    ['src/shared/x.ts', "import type { Services } from '../main/services';\nexport type S = Services;"],
    // Layering inside src/main (issue 16): every import arrow points down.
    ['src/main/db/x.ts', "import type { ModelCapabilities } from '../engine/types';\nexport type M = ModelCapabilities;"],
    ['src/main/db/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/main/engine/x.ts', "import { ChatService } from '../chat/chat-service';\nexport const c = ChatService;"],
    ['src/main/models/x.ts', "import { ChatService } from '../chat/chat-service';\nexport const c = ChatService;"],
    ['src/main/dialects/openai/x.ts', "import { runStep } from '../../engine/run-step';\nexport const r = runStep;"],
    ['src/main/leg/x.ts', "import type { StepStore } from '../db/step-store';\nexport type S = StepStore;"],
  ])('refuses the import in %s: %s', async (file, code) => {
    expect(await ruleIdsFor(code, file)).toContain('no-restricted-imports');
  });

  it.each([
    ['src/main/shell/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/main/chat/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;"],
    ['src/renderer/x.ts', "import type { Turn } from '../shared/turn';\nexport type T = Turn;"],
    ['src/main/db/x.ts', "import type { IdentityLayer } from '../../shared/identity-layer';\nexport type I = IdentityLayer;"],
    ['src/main/db/x.ts', "import type { Settings } from '../../shared/ipc';\nexport type S = Settings;"],
    ['src/main/models/x.ts', "import { joinUrl } from '../connections/server-url';\nexport const j = joinUrl;"],
    ['src/main/engine/x.ts', "import { TurnWriter } from './turn-writer';\nexport const t = TurnWriter;"],
  ])('allows the import in %s', async (file, code) => {
    expect(await ruleIdsFor(code, file)).not.toContain('no-restricted-imports');
  });
});
