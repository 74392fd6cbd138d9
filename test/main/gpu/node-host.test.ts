import { describe, expect, it } from 'vitest';
import { nodeProbeHost, runCommand } from '../../../src/main/gpu/node-host';
import { probeLocalGpus } from '../../../src/main/gpu/probe-gpu';

describe('the real probe host', () => {
  it('kills a command that outlives its timeout and reports it as not answering', async () => {
    // The command never ends by itself (and would exit 0 if it did): only the timeout's kill can end it, so an
    // answer at all, and `ok: false`, show the kill happened. A kill that never came fails by the test timeout.
    expect(await runCommand(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], 200)).toMatchObject({ ok: false });
  });

  it('reports a missing tool as not answering, without throwing', async () => {
    expect(await runCommand('firebrand-no-such-tool', [], 1_000)).toEqual({ ok: false, stdout: '' });
    expect(await runCommand(process.execPath, ['-e', 'process.stdout.write("12288")'], 60_000)).toEqual({ ok: true, stdout: '12288' });
  });

  it('probes this machine without throwing, whatever it has', async () => {
    // A generous timeout: only that the probe ends without throwing is checked here, not how fast.
    const report = await probeLocalGpus({ ...nodeProbeHost(), timeoutMs: 60_000 });
    expect(['nvidia-smi', 'rocm-smi', 'sysfs', 'sysctl', 'unknown']).toContain(report.source);
  });
});
