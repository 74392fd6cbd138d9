import { Fragment } from 'react';

export interface SecretRow {
  name: string;
  value: string;
  /** A value is saved in main; blank keeps it (it is never shown back). */
  saved: boolean;
}

/**
 * Name/value rows for environment variables or headers: values are typed once and never shown again. `addLabel`
 * names the button that adds a row ("Add variable"): a bare "Add" read, in a list of buttons, like "Add server".
 */
export function SecretRows({ label, addLabel, rows, onChange }: { label: string; addLabel: string; rows: SecretRow[]; onChange: (rows: SecretRow[]) => void }) {
  const update = (i: number, patch: Partial<SecretRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="mcp-secrets">
      <legend>{label}</legend>
      {rows.length > 0 && (
        // One grid, so the headings sit over their columns: each box says what it is once filled, where the
        // placeholders alone went as the user typed. Each input keeps its own full name for a screen reader.
        <div className="mcp-secret-grid">
          <span className="mcp-secret-head" aria-hidden="true">
            Name
          </span>
          <span className="mcp-secret-head" aria-hidden="true">
            Value
          </span>
          <span aria-hidden="true" />
          {rows.map((r, i) => (
            <Fragment key={i}>
              <input aria-label={`${label}: name`} placeholder="NAME" value={r.name} disabled={r.saved} onChange={(e) => update(i, { name: e.target.value })} />
              <input
                aria-label={`${label}: value of ${r.name || 'new entry'}`}
                type="password"
                autoComplete="off"
                placeholder={r.saved ? 'saved (type to replace)' : ''}
                value={r.value}
                onChange={(e) => update(i, { value: e.target.value })}
              />
              <button type="button" aria-label={`Remove ${r.name || 'this entry'}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                ×
              </button>
            </Fragment>
          ))}
        </div>
      )}
      <button type="button" onClick={() => onChange([...rows, { name: '', value: '', saved: false }])}>
        {addLabel}
      </button>
    </fieldset>
  );
}
