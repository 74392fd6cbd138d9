import type { ModelSummary } from '../../../shared/ipc';
import { selectModel } from '../../store';

/** Capabilities the picker names; the rest (completion, insert...) say nothing a user chooses by. */
const SHOWN = ['vision', 'tools', 'thinking'];

export function capabilityList(model: ModelSummary | undefined): string[] {
  return (model?.capabilities ?? []).filter((c) => SHOWN.includes(c));
}

export function ModelPicker({ models, selected }: { models: ModelSummary[]; selected: string | null }) {
  const current = models.find((m) => m.name === selected);
  const caps = capabilityList(current);
  return (
    <div className="model-picker-wrap">
      <select className="model-picker" data-testid="model-picker" aria-label="Model" value={selected ?? ''} onChange={(e) => selectModel(e.target.value)}>
        {models.length === 0 && <option value="">No models</option>}
        {models.map((m) => {
          const extra = [m.parameterSize, ...capabilityList(m)].filter(Boolean).join(' · ');
          return (
            <option key={m.name} value={m.name}>
              {m.name}
              {extra ? ` · ${extra}` : ''}
            </option>
          );
        })}
      </select>
      {caps.length > 0 && (
        <span className="caps" data-testid="model-capabilities">
          {caps.map((c) => (
            <span key={c} className={`cap cap-${c}`}>
              {c}
            </span>
          ))}
        </span>
      )}
    </div>
  );
}
