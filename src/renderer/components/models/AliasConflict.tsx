import type { Alias, AliasInput } from '../../../shared/models';
import { aliasDifferences } from './alias-differences';

/**
 * A save refused because another window or tab saved the alias first (main checks the version the edit began
 * from): what they saved beside what is in the form, and the choice. Nothing the user typed is lost either way
 * until they choose: "Keep mine" saves the form over theirs, "Take theirs" puts theirs in the form.
 */
export function AliasConflict({ theirs, mine, onKeepMine, onTakeTheirs }: { theirs: Alias; mine: AliasInput; onKeepMine: () => void; onTakeTheirs: () => void }) {
  const differences = aliasDifferences(theirs, mine);
  return (
    <div className="mm-error" role="alert" data-testid="alias-conflict">
      <p>This alias was saved in another window or tab since you began editing it, so your edit was not saved.{differences.length === 0 ? ' What they saved is the same as yours.' : ''}</p>
      {differences.length > 0 && (
        <ul className="mm-list">
          {differences.map((d) => (
            <li key={d.field} data-testid="alias-conflict-field" data-field={d.field}>
              <strong>{d.field}</strong>: theirs <q data-testid="alias-conflict-theirs">{d.theirs}</q>, yours <q data-testid="alias-conflict-mine">{d.mine}</q>
            </li>
          ))}
        </ul>
      )}
      <div className="mm-row">
        <button type="button" data-testid="alias-keep-mine" onClick={onKeepMine}>Keep mine</button>
        <button type="button" data-testid="alias-take-theirs" onClick={onTakeTheirs}>Take theirs</button>
      </div>
    </div>
  );
}
