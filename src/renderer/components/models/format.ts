/** The Models screen's units: the app's one set (src/renderer/format.ts); windows there are exact token counts. */
export { formatBytes, formatDuration, formatExactTokens as formatTokens } from '../../format';
