import { describe, expect, it } from 'vitest';
import { nodeProbeHost, runCommand } from '../../../src/main/gpu/node-host';
import { probeLocalGpus } from '../../../src/main/gpu/probe-gpu';

describe('the real probe host', () => {
  it('kills a command that outlives its timeout and reports it as not answering', async () => {
    const started = Date.now();
    expect(await runCommand(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'], 200)).toMatchObject({ ok: false });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reports a missing tool as not answering, without throwing', async () => {
    expect(await runCommand('firebrand-no-such-tool', [], 1_000)).toEqual({ ok: false, stdout: '' });
    expect(await runCommand(process.execPath, ['-e', 'process.stdout.write("12288")'], 5_000)).toEqual({ ok: true, stdout: '12288' });
  });

  it('probes this machine without throwing, whatever it has', async () => {
    const report = await probeLocalGpus({ ...nodeProbeHost(), timeoutMs: 3_000 });
    expect(['nvidia-smi', 'rocm-smi', 'sysfs', 'sysctl', 'unknown']).toContain(report.source);
  });
});
