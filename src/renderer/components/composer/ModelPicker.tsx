import type { ModelSummary } from '../../../shared/ipc';
import type { Alias } from '../../../shared/models';
import { selectModel } from '../../store';

/** Capabilities the picker names; the rest (completion, insert...) say nothing a user chooses by. */
const SHOWN = ['vision', 'tools', 'thinking'];

export function capabilityList(model: ModelSummary | undefined): string[] {
  return (model?.capabilities ?? []).filter((c) => SHOWN.includes(c));
}

/**
 * Models and aliases in one `<select>`: an alias's option value is its name (main routes a name that is an
 * alias through it) and its label names the model underneath.
 */
export function ModelPicker({ models, aliases, selected }: { models: ModelSummary[]; aliases: Alias[]; selected: string | null }) {
  const alias = aliases.find((a) => a.name === selected);
  const current = models.find((m) => m.name === selected) ?? models.find((m) => m.name === alias?.model);
  const caps = capabilityList(current);
  const option = (m: ModelSummary) => {
    const extra = [m.parameterSize, ...capabilityList(m)].filter(Boolean).join(' · ');
    return (
      <option key={m.name} value={m.name}>
        {m.name}
        {extra ? ` · ${extra}` : ''}
      </option>
    );
  };
  return (
    <div className="model-picker-wrap">
      <select className="model-picker" data-testid="model-picker" aria-label="Model" value={selected ?? ''} onChange={(e) => selectModel(e.target.value)}>
        {models.length === 0 && aliases.length === 0 && <option value="">No models</option>}
        {aliases.length > 0 ? (
          <>
            <optgroup label="Aliases">
              {aliases.map((a) => (
                <option key={`alias:${a.id}`} value={a.name} data-alias={a.name} data-model={a.model}>
                  {a.name} → {a.model}
                </option>
              ))}
            </optgroup>
            <optgroup label="Models">{models.map(option)}</optgroup>
          </>
        ) : (
          models.map(option)
        )}
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
