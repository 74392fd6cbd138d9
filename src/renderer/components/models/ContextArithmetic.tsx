import type { ContextRecommendation, ContextRecommendationLine } from '../../../shared/models';
import { formatBytes, formatTokens } from './format';

function lineValue(l: ContextRecommendationLine): string {
  if (l.unit === 'tokens') return `${formatTokens(l.value)} tokens`;
  if (l.unit === 'bytes-per-token') return `${formatTokens(Math.round(l.value))} B per token`;
  return formatBytes(l.value);
}

/** The recommendation's arithmetic, line by line, and its verdict (shared by Ollama's and the built-in panels). */
export function ContextArithmetic({ rec }: { rec: ContextRecommendation }) {
  return (
    <>
      <table className="mm-arith" data-testid="context-lines">
        <tbody>
          {rec.lines.map((l) => (
            <tr key={l.label}>
              <td>{l.label}</td>
              <td>{lineValue(l)}</td>
              <td className="mm-muted">{l.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-testid="context-message" className={rec.fits ? 'mm-ok' : 'mm-error'}>{rec.message}</p>
    </>
  );
}
