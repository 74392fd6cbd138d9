import { useEffect, useState } from 'react';
import type { GpuReport } from '../../../shared/models';
import { firebrand } from '../../firebrand';
import { useModelsStore } from '../../store/models-slice';
import { unknownGpuLine } from './gpu-line';

/**
 * The Models screen's GPU line: where the GPU memory is unknown, said once for every model's window, with where to
 * set it (unknownGpuLine). Read when the screen opens and again when the memory is set (windowVersion).
 */
export function GpuMemoryLine() {
  const [gpu, setGpu] = useState<GpuReport | null>(null);
  const version = useModelsStore((s) => s.windowVersion);
  useEffect(() => {
    let live = true;
    firebrand()
      .gpu.probe({})
      .then((report) => live && setGpu(report))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [version]);
  const line = gpu ? unknownGpuLine(gpu) : null;
  return line ? <p className="mm-warn" data-testid="models-gpu">{line}</p> : null;
}
