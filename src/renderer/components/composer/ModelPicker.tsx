import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Check, ChevronDown } from 'lucide-react';
import type { ConnectionInfo } from '../../../shared/connections';
import type { ModelSummary } from '../../../shared/ipc';
import type { Alias } from '../../../shared/models';
import { selectModel } from '../../store';
import { loadLibrary } from '../../store/library-slice';
import { aliasOfRef, refLabel } from '../../../shared/model-ref';
import { capabilityList, filterGroups, pickerGroups, type PickerEntry } from './picker-groups';

interface Props {
  models: ModelSummary[];
  aliases: Alias[];
  connections: ConnectionInfo[];
  activeConnectionId: string;
  selected: string | null;
  /** What to say when there is nothing to choose (Composer: noModelsHint); null while the list has not come. */
  emptyHint?: string | null;
}

/**
 * A searchable model picker (ARIA combobox with a listbox): type to filter, arrows and Enter to choose, entries
 * grouped by connection with their capabilities as badges. Its width is fixed by the layout, never by the
 * longest name (a GGUF path or a long tag would otherwise push Send off the row). The selected value rides in
 * `data-value`; while closed the field shows it.
 */
export function ModelPicker({ models, aliases, connections, activeConnectionId, selected, emptyHint = null }: Props) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const groups = useMemo(() => pickerGroups(models, aliases, connections, activeConnectionId), [models, aliases, connections, activeConnectionId]);
  const shown = useMemo(() => filterGroups(groups, open ? query : ''), [groups, query, open]);
  const choosable = shown.flatMap((g) => g.entries).filter((e) => !e.disabled);
  const optionId = (value: string) => `${listId}-${value.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const alias = aliasOfRef(selected, aliases);
  // What the field shows: an alias by its name (its value is `alias:<id>`).
  const selectedLabel = selected === null ? '' : refLabel(selected, aliases);
  const current = models.find((m) => m.name === selected) ?? models.find((m) => m.name === alias?.model);
  const caps = capabilityList(current);

  const show = () => {
    if (open) return;
    // A GGUF copied into the models folder while another connection is active is seen as the list opens.
    if (groups.length === 0 && emptyHint !== null) void loadLibrary();
    setOpen(true);
    setQuery('');
    setActive(selected);
  };
  const close = () => {
    setOpen(false);
    setQuery('');
  };
  const choose = (entry: PickerEntry) => {
    if (entry.disabled) return;
    selectModel(entry.value);
    close();
  };
  const move = (step: number) => {
    if (choosable.length === 0) return;
    const at = choosable.findIndex((e) => e.value === active);
    const next = at < 0 ? (step > 0 ? 0 : choosable.length - 1) : (at + step + choosable.length) % choosable.length;
    const entry = choosable[next];
    if (entry) {
      setActive(entry.value);
      document.getElementById(optionId(entry.value))?.scrollIntoView({ block: 'nearest' });
    }
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    // Keys an input method is composing with (Enter picks a conversion, Escape cancels it) are its own.
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) show();
      else move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const entry = choosable.find((x) => x.value === active) ?? (query !== '' ? choosable[0] : undefined);
      if (open && entry) choose(entry);
      else if (!open) show();
    } else if (e.key === 'Escape' && open) {
      // Closes the list only: the app-wide Escape (stop the answer) is not meant.
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Tab') {
      close();
    }
  };

  return (
    <div className="model-picker-wrap">
      <span className="model-picker-field">
      <input
        ref={input}
        className="model-picker"
        data-testid="model-picker"
        data-value={selected ?? ''}
        data-name={selectedLabel}
        role="combobox"
        aria-label="Model"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        title={selected === null ? 'No model' : selectedLabel}
        placeholder={open ? 'Filter models…' : groups.length === 0 ? 'No models' : 'Choose a model'}
        value={open ? query : selectedLabel}
        onChange={(e) => {
          // Typed into the closed field, the keys went after the chosen model's name ("qwen3:8bqwen", nothing
          // listed; keyboard audit #7): the filter is what was typed.
          const typed = !open && e.target.value.startsWith(selectedLabel) ? e.target.value.slice(selectedLabel.length) : e.target.value;
          if (!open) show();
          setQuery(typed);
          setActive(null);
        }}
        onClick={show}
        onKeyDown={onKey}
        onBlur={close}
      />
      <ChevronDown className="icon model-picker-chevron" aria-hidden />
      </span>
      {/* Kept in the DOM while closed (hidden), so the choices can be read without opening it. */}
      <ul
        className="model-list"
        id={listId}
        role="listbox"
        aria-label="Models"
        hidden={!open}
        // The field keeps the focus while the list is clicked.
        onMouseDown={(e) => e.preventDefault()}
      >
        {shown.length === 0 && <li className="model-empty">{groups.length === 0 ? (emptyHint ?? 'No models yet: pull or add one in Models.') : `Nothing matches “${query}”.`}</li>}
        {shown.map((g) => (
          <li key={g.id} role="presentation">
            <div className="model-group-label" id={`${listId}-g-${g.id}`} aria-hidden>
              {g.label}
            </div>
            <ul className="model-group" role="group" aria-labelledby={`${listId}-g-${g.id}`}>
              {g.entries.map((entry) => (
                <li
                  key={`${entry.kind}:${entry.value}`}
                  id={optionId(entry.value)}
                  role="option"
                  className={entry.value === active ? 'model-option active' : 'model-option'}
                  data-value={entry.value}
                  data-name={entry.label}
                  data-kind={entry.kind}
                  aria-selected={entry.value === selected}
                  aria-disabled={entry.disabled ? true : undefined}
                  title={entry.disabled ?? entry.label}
                  onMouseEnter={() => !entry.disabled && setActive(entry.value)}
                  onClick={() => choose(entry)}
                >
                  {entry.value === selected ? <Check className="icon check" aria-hidden /> : <span className="check" />}
                  <span className="name">
                    {entry.label}
                    {entry.disabled && <span className="why">{entry.disabled}</span>}
                  </span>
                  {entry.detail && <span className="meta">{entry.detail}</span>}
                  {entry.capabilities.length > 0 && (
                    <span className="caps">
                      {entry.capabilities.map((c) => (
                        <span key={c} className={`cap cap-${c}`}>
                          {c}
                        </span>
                      ))}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {caps.length > 0 && (
        <span className="caps label-wide" data-testid="model-capabilities">
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
