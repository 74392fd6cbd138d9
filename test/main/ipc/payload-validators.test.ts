import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generatePayloadValidators } from '../../../scripts/payload-validators';

describe('the payload validators compiled ahead of time', () => {
  it('are up to date with the schemas (else run `npx tsx scripts/payload-validators.ts`)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8') === generatePayloadValidators(), 'src/main/ipc/payload-validators.generated.js is out of date: run `npx tsx scripts/payload-validators.ts`').toBe(true);
  });
});
